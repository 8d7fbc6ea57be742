//! Conversion of the DTOs into kernel objects.

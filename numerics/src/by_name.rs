//! Options set by name from text: the one declaration of a solver's settable options, from which
//! the model files' attributes are read (`saltus_runtime`), checked against the schema by a test,
//! and listed in messages. A declaration names each option once, with the field it sets; the
//! field's type says how the text is read ([`FromText`]).

/// A value read from the text of an option (a model-file attribute).
pub trait FromText: Sized {
    /// The value of `s`, or why it is not one.
    fn from_text(s: &str) -> Result<Self, String>;
}

impl FromText for f64 {
    fn from_text(s: &str) -> Result<f64, String> {
        s.trim().parse().map_err(|_| format!("`{s}` is not a number"))
    }
}

impl FromText for usize {
    fn from_text(s: &str) -> Result<usize, String> {
        s.trim().parse().map_err(|_| format!("`{s}` is not a non-negative integer"))
    }
}

impl FromText for u64 {
    fn from_text(s: &str) -> Result<u64, String> {
        s.trim().parse().map_err(|_| format!("`{s}` is not a non-negative integer"))
    }
}

/// `true`/`1` or `false`/`0` (XML Schema's boolean).
impl FromText for bool {
    fn from_text(s: &str) -> Result<bool, String> {
        match s.trim() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(format!("`{s}` is not true or false")),
        }
    }
}

/// A given value of an optional option.
impl<T: FromText> FromText for Option<T> {
    fn from_text(s: &str) -> Result<Option<T>, String> {
        T::from_text(s).map(Some)
    }
}

/// Options whose fields can be set by name.
pub trait SetByName {
    /// The settable names, in declaration order.
    const NAMES: &'static [&'static str];
    /// Sets the option `name` from `value`: `Ok(false)` when `name` is not one of
    /// [`SetByName::NAMES`], `Err` (the reason) for a value that does not read.
    fn set_by_name(&mut self, name: &str, value: &str) -> Result<bool, String>;
}

/// Declares the options of a type settable by name: `"name" => field.path` per option, then
/// optionally `extra [..names..] => function` for options that are not one field (the function
/// has [`SetByName::set_by_name`]'s signature and is called for those names only).
#[macro_export]
macro_rules! set_by_name {
    ($ty:ty { $($name:literal => $($field:ident).+),* $(,)? } $(extra [$($xname:literal),* $(,)?] => $extra:path)?) => {
        impl $crate::by_name::SetByName for $ty {
            const NAMES: &'static [&'static str] = &[$($name,)* $($($xname,)*)?];
            fn set_by_name(&mut self, name: &str, value: &str) -> Result<bool, String> {
                match name {
                    $($name => self.$($field).+ = $crate::by_name::FromText::from_text(value)?,)*
                    $($($xname)|* => return $extra(self, name, value),)?
                    _ => return Ok(false),
                }
                Ok(true)
            }
        }
    };
}

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

/// What the model files and the CLI know of a solver: its CLI name, its model-file element
/// (`<Lemke …/>`), a one-line description and its options' names ([`SetByName::NAMES`], the
/// element's attributes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverDecl {
    /// CLI name (`saltus solve --solver NAME`).
    pub name: &'static str,
    /// Model-file element.
    pub element: &'static str,
    /// One line for `saltus solvers` and the CLI help.
    pub description: &'static str,
    /// The options settable by name.
    pub options: &'static [&'static str],
}

/// Declares a family of solvers once: the enum (one variant per solver, carrying its typed
/// options, which implement [`SetByName`] and `Default`), its declarations `DECLS`
/// ([`SolverDecl`]) and its catalogue `SOLVERS` (CLI name, description), with `name`,
/// `from_element`, `decl` and `set_by_name` on the enum. One line per solver:
/// `Variant(Options) = "cli-name", "Element", "description";` after the variant's doc comment.
#[macro_export]
macro_rules! solver_family {
    (
        $(#[$meta:meta])*
        pub enum $family:ident, $decls:ident {
            $($(#[$vmeta:meta])* $v:ident($o:ty) = $n:literal, $e:literal, $desc:literal;)*
        }
    ) => {
        $(#[$meta])*
        pub enum $family {
            $($(#[$vmeta])* $v($o),)*
        }

        /// Every solver's declaration, in [`SOLVERS`] order.
        pub const $decls: &[$crate::by_name::SolverDecl] = &[
            $($crate::by_name::SolverDecl {
                name: $n,
                element: $e,
                description: $desc,
                options: <$o as $crate::by_name::SetByName>::NAMES,
            },)*
        ];

        /// The solver catalogue: (CLI name, one-line description).
        pub const SOLVERS: &[(&str, &str)] = &[$(($n, $desc)),*];

        impl $family {
            /// The CLI name of the solver (see [`SOLVERS`]).
            pub fn name(&self) -> &'static str {
                self.decl().name
            }

            /// The solver whose model-file element is `element`, with default options.
            pub fn from_element(element: &str) -> Option<$family> {
                Some(match element {
                    $($e => $family::$v(<$o>::default()),)*
                    _ => return None,
                })
            }

            /// Its declaration (its entry of the declarations).
            pub fn decl(&self) -> &'static $crate::by_name::SolverDecl {
                match self {
                    $($family::$v(_) => &$crate::by_name::SolverDecl {
                        name: $n,
                        element: $e,
                        description: $desc,
                        options: <$o as $crate::by_name::SetByName>::NAMES,
                    },)*
                }
            }

            /// Sets the option `name` from text ([`SetByName`](crate::by_name::SetByName) of the
            /// variant's options).
            pub fn set_by_name(&mut self, name: &str, value: &str) -> std::result::Result<bool, String> {
                match self {
                    $($family::$v(o) => $crate::by_name::SetByName::set_by_name(o, name, value),)*
                }
            }
        }
    };
}

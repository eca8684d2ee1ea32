//! Declarative helpers shared by the core's modules.

/// Declares a closed set of choices with their one spelling in the CLI, URL and JSON.
macro_rules! choice {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every choice, in the order a picker shows them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling shared by the command line, the URL and the JSON.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Reads the shared spelling (case-insensitive).
            pub fn parse(text: &str) -> Option<Self> {
                let text = text.trim();
                Self::ALL.iter().copied().find(|v| v.as_str().eq_ignore_ascii_case(text))
            }

            /// The accepted spellings, in picker order.
            pub fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(|v| v.as_str()).collect()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

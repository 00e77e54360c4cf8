//! The adapters' builder methods that only replace one field, written once.

/// `with_setters! { with_readback(readback: Readback); }` in an `impl` block gives
/// `pub fn with_readback(mut self, readback: Readback) -> Self`, which sets `self.readback`.
macro_rules! with_setters {
    ($($(#[$doc:meta])* $name:ident($field:ident: $ty:ty);)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, $field: $ty) -> Self {
                self.$field = $field;
                self
            }
        )*
    };
}

pub(crate) use with_setters;

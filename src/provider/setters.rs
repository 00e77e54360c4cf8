//! The adapters' builder methods that only replace one field, written once.

/// `with_setters! { with_readback(readback: Readback); }` in an `impl` block gives
/// `pub fn with_readback(mut self, readback: Readback) -> Self`, which sets `self.readback`
/// (`with_readback(readback: Readback) in held;` sets `self.held.readback`).
macro_rules! with_setters {
    ($($(#[$doc:meta])* $name:ident($field:ident: $ty:ty) $(in $owner:ident)?;)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, $field: $ty) -> Self {
                self.$($owner.)?$field = $field;
                self
            }
        )*
    };
}

pub(crate) use with_setters;

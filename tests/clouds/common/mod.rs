//! What the peers and the fault matrices share: the loopback HTTP server and one case of a
//! fault matrix.

pub mod fault_matrix;
pub mod loopback;

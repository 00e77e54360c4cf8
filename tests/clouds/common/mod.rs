//! What the peers and the fault matrices share: the loopback HTTP server, one case of a fault
//! matrix, the fault proxy and moto.

pub mod fault_matrix;
pub mod fault_proxy;
pub mod loopback;
pub mod moto;

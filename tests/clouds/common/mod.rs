//! What the peers and the fault matrices share: the loopback HTTP server, one case of a fault
//! matrix, the fault proxy, moto, and the binary pointed at the Alibaba or Tencent peer.

pub mod cn_bin;
pub mod fault_matrix;
pub mod fault_proxy;
pub mod fleet_bin;
pub mod loopback;
pub mod moto;

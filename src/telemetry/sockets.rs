//! The machine's TCP sockets and the bytes each has sent, from the kernel's socket diagnostics
//! (`NETLINK_SOCK_DIAG`, what `ss -ti` reads): one dump per address family per sample, no root
//! needed, no per-process walk. The message formats are the rust-netlink project's
//! `netlink-packet-sock-diag`; the socket is rustix's, already the program's.
//!
//! Only `tcpi_bytes_acked` is read from each socket's `tcp_info` (offset 120 in
//! `include/uapi/linux/tcp.h`, since Linux 4.1): the sequence space the peer acknowledged,
//! which counts the SYN as one byte; the payload is one less.

use std::io;
use std::net::IpAddr;

use gpumeter_core::traffic::attribute::SocketReading;
use netlink_packet_core::{
    NLM_F_DUMP, NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload,
};
use netlink_packet_sock_diag::SockDiagMessage;
use netlink_packet_sock_diag::constants::{AF_INET, AF_INET6, IPPROTO_TCP};
use netlink_packet_sock_diag::inet::nlas::Nla;
use netlink_packet_sock_diag::inet::{ExtensionFlags, InetRequest, SocketId, StateFlags};
use rustix::fd::OwnedFd;
use rustix::net::{AddressFamily, RecvFlags, SendFlags, SocketType, netlink};

/// Where `tcpi_bytes_acked` sits in `struct tcp_info`.
const BYTES_ACKED: std::ops::Range<usize> = 120..128;

/// The machine's TCP sockets, read through one netlink socket kept open: opening and closing
/// one each read would cost the close's wait every second.
pub struct SocketDiag {
    fd: OwnedFd,
    buf: Vec<u8>,
}

impl SocketDiag {
    pub fn open() -> io::Result<SocketDiag> {
        let fd = rustix::net::socket(
            AddressFamily::NETLINK,
            SocketType::DGRAM,
            Some(netlink::SOCK_DIAG),
        )?;
        Ok(SocketDiag {
            fd,
            buf: vec![0u8; 64 * 1024],
        })
    }

    /// Every TCP socket of this network namespace that has sent anything, IPv4 and IPv6,
    /// into `out` (cleared first).
    pub fn read(&mut self, out: &mut Vec<SocketReading>) -> io::Result<()> {
        out.clear();
        for family in [AF_INET, AF_INET6] {
            dump(&self.fd, family, &mut self.buf, out)?;
        }
        Ok(())
    }
}

/// [`SocketDiag::read`] once, through a netlink socket of its own.
pub fn tcp_sockets() -> io::Result<Vec<SocketReading>> {
    let mut out = Vec::new();
    SocketDiag::open()?.read(&mut out)?;
    Ok(out)
}

fn dump(fd: &OwnedFd, family: u8, buf: &mut [u8], out: &mut Vec<SocketReading>) -> io::Result<()> {
    let mut header = NetlinkHeader::default();
    header.flags = NLM_F_REQUEST | NLM_F_DUMP;
    let socket_id = if family == AF_INET {
        SocketId::new_v4()
    } else {
        SocketId::new_v6()
    };
    let mut request = NetlinkMessage::new(
        header,
        SockDiagMessage::InetRequest(InetRequest {
            family,
            protocol: IPPROTO_TCP,
            extensions: ExtensionFlags::INFO,
            states: StateFlags::all(),
            socket_id,
        })
        .into(),
    );
    request.finalize();
    let mut bytes = vec![0u8; request.buffer_len()];
    request.serialize(&mut bytes);
    rustix::net::send(fd, &bytes, SendFlags::empty())?;

    loop {
        let (_, received) = rustix::net::recv(fd, &mut *buf, RecvFlags::empty())?;
        let mut offset = 0;
        while offset < received {
            let message = NetlinkMessage::<SockDiagMessage>::deserialize(&buf[offset..received])
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            let length = message.header.length as usize;
            match message.payload {
                NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(r)) => {
                    if let Some(reading) = reading(&r.header.socket_id, &r.nlas) {
                        out.push(reading);
                    }
                }
                NetlinkPayload::Done(_) => return Ok(()),
                NetlinkPayload::Error(e) => {
                    return Err(e.code.map_or_else(
                        || io::Error::other("sock_diag error"),
                        |c| io::Error::from_raw_os_error(-c.get()),
                    ));
                }
                _ => {}
            }
            if length == 0 {
                break;
            }
            offset += length;
        }
    }
}

fn reading(id: &SocketId, nlas: &[Nla]) -> Option<SocketReading> {
    let info = nlas.iter().find_map(|n| match n {
        Nla::TcpInfo(bytes) => Some(bytes),
        _ => None,
    })?;
    let acked = u64::from_ne_bytes(info.get(BYTES_ACKED)?.try_into().ok()?);
    let sent = acked.saturating_sub(1);
    if sent == 0 {
        return None;
    }
    let remote: IpAddr = id.destination_address;
    Some(SocketReading {
        cookie: u64::from_ne_bytes(id.cookie),
        remote,
        sent,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::{SocketAddr, TcpListener, TcpStream};
    use std::process::Command;
    use std::time::{Duration, Instant};

    use gpumeter_core::traffic::{Attributor, Classifier, EgressSplit, TrafficClass};

    use super::*;

    const MIB: u64 = 1 << 20;

    /// A server on `addr` that reads everything sent to it.
    fn sink(addr: &str) -> SocketAddr {
        let listener = TcpListener::bind(addr).unwrap();
        let local = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let mut s = stream.unwrap();
                std::thread::spawn(move || std::io::copy(&mut s, &mut std::io::sink()));
            }
        });
        local
    }

    /// Sends `bytes` to `to` and keeps the connection open, as a long upload does.
    fn send(to: SocketAddr, bytes: u64) -> TcpStream {
        let mut s = TcpStream::connect(to).unwrap();
        let chunk = vec![7u8; 64 * 1024];
        for _ in 0..bytes / chunk.len() as u64 {
            s.write_all(&chunk).unwrap();
        }
        s.flush().unwrap();
        s
    }

    /// Reads the sockets until `done` holds (the peer acknowledges a moment after the write).
    fn until(done: impl Fn(&[SocketReading]) -> bool) -> Vec<SocketReading> {
        let start = Instant::now();
        loop {
            let sockets = tcp_sockets().unwrap();
            if done(&sockets) || start.elapsed() > Duration::from_secs(10) {
                return sockets;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_socket_on_loopback_reports_the_bytes_its_peer_acknowledged() {
        let to = sink("127.0.0.1:0");
        let _open = send(to, 3 * MIB);
        let sent_to = |s: &[SocketReading]| -> u64 {
            s.iter()
                .filter(|r| r.remote == to.ip())
                .map(|r| r.sent)
                .max()
                .unwrap_or(0)
        };
        let sockets = until(|s| sent_to(s) >= 3 * MIB);
        assert_eq!(sent_to(&sockets), 3 * MIB);
    }

    /// Run inside a network namespace the outer test creates, with 10.1.0.1 (a VPC address)
    /// and 198.51.100.1 (a documentation address, standing for the internet) on its loopback.
    #[test]
    #[ignore = "run by traffic_splits_by_destination_in_a_network_namespace, inside one"]
    fn inside_a_namespace() {
        let classifier = Classifier::new("alibaba", "cn-hangzhou", &[]);
        let mut attributor = Attributor::new(classifier.clone());
        assert_eq!(
            attributor.observe(&tcp_sockets().unwrap()),
            EgressSplit::default()
        );
        let intranet = sink("10.1.0.1:0");
        let internet = sink("198.51.100.1:0");
        let _a = send(intranet, 3 * MIB);
        let _b = send(internet, MIB);
        let total = |s: &[SocketReading], class| -> u64 {
            s.iter()
                .filter(|r| classifier.classify(r.remote) == Some(class))
                .map(|r| r.sent)
                .sum()
        };
        let sockets = until(|s| {
            total(s, TrafficClass::Intranet) >= 3 * MIB && total(s, TrafficClass::Internet) >= MIB
        });
        assert_eq!(total(&sockets, TrafficClass::Internet), MIB);
        let split = attributor.observe(&sockets);
        assert_eq!(
            split,
            EgressSplit {
                intranet: 3 * MIB,
                cross_region: 0
            }
        );
        // Nothing more was sent: the next reading adds nothing.
        assert_eq!(
            attributor.observe(&tcp_sockets().unwrap()),
            EgressSplit::default()
        );
    }

    #[test]
    fn traffic_splits_by_destination_in_a_network_namespace() {
        let exe = std::env::current_exe().unwrap();
        let script = format!(
            "ip link set lo up && ip addr add 10.1.0.1/32 dev lo && \
             ip addr add 198.51.100.1/32 dev lo && exec '{}' --exact --ignored \
             telemetry::sockets::tests::inside_a_namespace",
            exe.display()
        );
        let probe = Command::new("unshare").args(["-rn", "true"]).status();
        if !probe.is_ok_and(|s| s.success()) {
            eprintln!("skipped: this machine cannot create a network namespace (unshare -rn)");
            return;
        }
        let out = Command::new("unshare")
            .args(["-rn", "sh", "-c", &script])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("1 passed"),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

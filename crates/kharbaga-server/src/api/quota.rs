//! The cap on games created per client address per minute: a sliding window of the last
//! minute's creations per address (IPv6 addresses counted by their /64 network, which one
//! client usually has whole).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window the cap counts over.
const WINDOW: Duration = Duration::from_secs(60);

/// Past this many addresses remembered, those with nothing in the window are forgotten.
const PRUNE_AT: usize = 4096;

/// Games created recently, by client.
pub(super) struct Quota {
    per_minute: u32,
    recent: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl Quota {
    /// A cap of `per_minute` creations a minute per client (0: no cap).
    pub fn new(per_minute: u32) -> Quota {
        Quota {
            per_minute,
            recent: Mutex::default(),
        }
    }

    /// Counts a creation by `client` at `now`, or answers how long until it may create
    /// again when it has reached the cap.
    pub fn take(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() > PRUNE_AT {
            recent.retain(|_, times| {
                forget_old(times, now);
                !times.is_empty()
            });
        }
        let times = recent.entry(network_of(client)).or_default();
        forget_old(times, now);
        if times.len() >= self.per_minute as usize {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(WINDOW.saturating_sub(now.duration_since(oldest)));
        }
        times.push_back(now);
        Ok(())
    }
}

fn forget_old(times: &mut VecDeque<Instant>, now: Instant) {
    while times
        .front()
        .is_some_and(|&t| now.duration_since(t) >= WINDOW)
    {
        times.pop_front();
    }
}

/// The address a client is counted under: an IPv4 address itself (or the IPv4 address
/// inside an IPv4-mapped IPv6 one), an IPv6 address's /64 network.
fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_counts_the_last_minute_per_client() {
        let quota = Quota::new(3);
        let t0 = Instant::now();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        for s in 0..3 {
            assert_eq!(quota.take(a, t0 + Duration::from_secs(s)), Ok(()));
        }
        // The fourth within the minute waits until the first is a minute old.
        assert_eq!(
            quota.take(a, t0 + Duration::from_secs(10)),
            Err(Duration::from_secs(50))
        );
        // Another client is not affected.
        assert_eq!(quota.take(b, t0 + Duration::from_secs(10)), Ok(()));
        // A minute after the first, one more may be created.
        assert_eq!(quota.take(a, t0 + Duration::from_secs(60)), Ok(()));
        assert!(quota.take(a, t0 + Duration::from_secs(60)).is_err());
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_network() {
        let quota = Quota::new(1);
        let now = Instant::now();
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_net: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_net: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(quota.take(one, now).is_ok());
        assert!(quota.take(same_net, now).is_err());
        assert!(quota.take(other_net, now).is_ok());
        // An IPv4-mapped address counts as its IPv4 address.
        let v4: IpAddr = "192.0.2.7".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert!(quota.take(v4, now).is_ok());
        assert!(quota.take(mapped, now).is_err());
    }

    #[test]
    fn no_cap_when_zero() {
        let quota = Quota::new(0);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..1000 {
            assert!(quota.take(ip, Instant::now()).is_ok());
        }
        assert!(quota.recent.lock().unwrap().is_empty());
    }
}

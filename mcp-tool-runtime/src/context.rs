//! What "now" means to the date rules.

use std::sync::atomic::{AtomicU32, Ordering};

use jiff::civil::Date;
use jiff::tz::TimeZone;

/// The clock and time zone that `future_date` and `past_date` are judged against.
///
/// A server validates in its users' zone with [`Context::in_time_zone`]; a test fixes
/// the date with [`Context::on`]. The current date is read at most once per context,
/// and only if a date rule asks for it.
///
/// ```
/// use mcp_tool::Context;
///
/// let fixed = Context::on(2026, 11, 30).unwrap();
/// assert_eq!(fixed.today().to_string(), "2026-11-30");
///
/// let paris = Context::in_time_zone("Europe/Paris").unwrap();
/// let _ = paris.today();
/// ```
#[derive(Debug)]
pub struct Context {
    clock: Clock,
    /// The date once read, packed (see [`pack`]); 0 until then. An atomic rather than
    /// a `OnceLock`: a context is made for every call, and a `OnceLock`'s first
    /// initialization costs more than reading the date.
    today: AtomicU32,
}

impl Clone for Context {
    fn clone(&self) -> Self {
        Context {
            clock: self.clock.clone(),
            today: AtomicU32::new(self.today.load(Ordering::Relaxed)),
        }
    }
}

/// A date as a non-zero `u32`: the year, the month and the day in bit fields.
fn pack(date: Date) -> u32 {
    let year = u32::from(date.year().cast_unsigned());
    (year << 16)
        | (u32::from(date.month().cast_unsigned()) << 8)
        | u32::from(date.day().cast_unsigned())
}

fn unpack(packed: u32) -> Option<Date> {
    // (Not through `Date::new`'s error: a jiff error allocates.)
    if packed == 0 {
        return None;
    }
    let year = ((packed >> 16) as u16).cast_signed();
    let month = ((packed >> 8) as u8).cast_signed();
    let day = (packed as u8).cast_signed();
    Date::new(year, month, day).ok()
}

#[derive(Debug, Clone)]
enum Clock {
    /// The system's zone, looked up when a date rule first asks.
    Local,
    System(TimeZone),
    Fixed(Date),
}

/// Why a [`Context`] could not be made.
#[derive(Debug, Clone)]
pub struct ContextError(String);

impl std::fmt::Display for ContextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ContextError {}

impl Context {
    /// The system clock in the system's time zone (`TZ`, else `/etc/localtime`, else UTC).
    pub fn now() -> Self {
        Context {
            clock: Clock::Local,
            today: AtomicU32::new(0),
        }
    }

    /// The system clock in the named IANA time zone, such as `"Europe/Paris"`.
    pub fn in_time_zone(name: &str) -> Result<Self, ContextError> {
        let zone = TimeZone::get(name)
            .map_err(|e| ContextError(format!("unknown time zone {name:?}: {e}")))?;
        Ok(Context::in_zone(zone))
    }

    /// The system clock in the given time zone.
    pub fn in_zone(zone: TimeZone) -> Self {
        Context {
            clock: Clock::System(zone),
            today: AtomicU32::new(0),
        }
    }

    /// A fixed current date, for tests and replays.
    pub fn on(year: i16, month: i8, day: i8) -> Result<Self, ContextError> {
        let date = Date::new(year, month, day)
            .map_err(|e| ContextError(format!("invalid date {year}-{month}-{day}: {e}")))?;
        Ok(Context::on_date(date))
    }

    /// A fixed current date, for tests and replays.
    pub fn on_date(date: Date) -> Self {
        Context {
            clock: Clock::Fixed(date),
            today: AtomicU32::new(0),
        }
    }

    /// The current date in this context's zone.
    pub fn today(&self) -> Date {
        let zone = match &self.clock {
            Clock::Fixed(date) => return *date,
            Clock::Local => None,
            Clock::System(zone) => Some(zone),
        };
        // Month and day are never 0, so a packed date never is.
        if let Some(date) = unpack(self.today.load(Ordering::Relaxed)) {
            return date;
        }
        let date = match zone {
            None => local_today(),
            Some(zone) => jiff::Timestamp::now()
                .to_zoned_datetime(zone.clone())
                .date(),
        };
        // Two threads may both read the clock; the first date stored is kept.
        match self
            .today
            .compare_exchange(0, pack(date), Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => date,
            Err(stored) => unpack(stored).unwrap_or(date),
        }
    }
}

/// Today in the system's zone. The date holds until the next local midnight, so each
/// thread keeps it with the span it is valid for and reads only the clock until then; the
/// span is cut to a minute, so that a change of the system's zone is seen soon.
fn local_today() -> Date {
    use std::cell::Cell;
    use std::time::{Duration, SystemTime};
    thread_local! {
        /// The date, and the span of time since the epoch it holds for.
        static TODAY: Cell<Option<(Duration, Duration, Date)>> = const { Cell::new(None) };
    }
    // The system clock as is: no conversion on the path every call takes.
    let since_epoch = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH);
    if let (Ok(now), Some((from, until, date))) = (since_epoch, TODAY.get())
        && from <= now
        && now < until
    {
        return date;
    }
    let now = jiff::Timestamp::now();
    let zoned = now.to_zoned_datetime(TimeZone::system());
    let date = zoned.date();
    let from = zoned.start_of_day().map(|z| z.timestamp());
    let midnight = zoned
        .tomorrow()
        .and_then(|z| z.start_of_day())
        .map(|z| z.timestamp());
    let minute = now.checked_add(jiff::SignedDuration::from_secs(60));
    let since =
        |t: jiff::Timestamp| Duration::try_from(t.duration_since(jiff::Timestamp::UNIX_EPOCH)).ok();
    if let (Ok(from), Ok(midnight), Ok(minute)) = (from, midnight, minute)
        && let (Some(from), Some(until)) = (since(from), since(midnight.min(minute)))
    {
        TODAY.set(Some((from, until, date)));
    }
    date
}

impl Default for Context {
    fn default() -> Self {
        Context::now()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_date_is_never_zero_and_unpacks_to_itself() {
        for (y, m, d) in [
            (2026, 11, 30),
            (-9999, 1, 1),
            (9999, 12, 31),
            (0, 2, 29),
            (1970, 1, 1),
        ] {
            let date = jiff::civil::date(y, m, d);
            assert_ne!(pack(date), 0);
            assert_eq!(unpack(pack(date)), Some(date));
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn the_date_is_read_once_per_context() {
        // A date already read is the answer, clones included: the clock is not asked
        // again (a date planted in the cache shows it).
        let context = Context::in_zone(TimeZone::UTC);
        let planted = jiff::civil::date(2000, 1, 1);
        context.today.store(pack(planted), Ordering::Relaxed);
        assert_eq!(context.today(), planted);
        assert_eq!(context.clone().today(), planted);
        // Unread, it asks the clock. (Read between two readings of the local date, in
        // case midnight passes.)
        let before = local_today();
        let today = Context::now().today();
        assert!(today == before || today == local_today());
        assert_ne!(today, planted);
    }
}

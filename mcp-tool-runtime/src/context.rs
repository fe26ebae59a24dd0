//! What "now" means to the date rules.

#[cfg(feature = "dates")]
use jiff::civil::Date;
#[cfg(feature = "dates")]
use jiff::tz::TimeZone;

/// The clock and time zone that `future_date` and `past_date` are judged against.
///
/// A server validates in its users' zone with `Context::in_time_zone`; a test fixes
/// the date with `Context::on`. The current date is read when a date rule asks for
/// it, so one context serves a server for as long as it runs, past midnight too.
///
/// Without the `dates` feature no rule asks for a date: `Context::now()` is all there is,
/// and it holds nothing.
///
/// ```
/// # #[cfg(feature = "dates")] {
/// use mcp_tool::Context;
///
/// let fixed = Context::on(2026, 11, 30).unwrap();
/// assert_eq!(fixed.today().to_string(), "2026-11-30");
///
/// let paris = Context::in_time_zone("Europe/Paris").unwrap();
/// let _ = paris.today();
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Context {
    #[cfg(feature = "dates")]
    clock: Clock,
}

#[cfg(feature = "dates")]
#[derive(Debug, Clone)]
enum Clock {
    /// The system's zone, looked up when a date rule first asks.
    Local,
    System(TimeZone),
    Fixed(Date),
    /// No date is known: [`Context::UNDATED`].
    Unknown,
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
            #[cfg(feature = "dates")]
            clock: Clock::Local,
        }
    }

    /// A context that knows no date: a date rule judged in it by the walk of valid
    /// arguments says "not sure", leaving the value to the full check, which judges it
    /// in the call's own context. The walk judges in it once a key has failed, when the
    /// full check reads the call anyway: a date (read, and the clock read) is then
    /// judged once there, rather than twice when it fails.
    pub(crate) const UNDATED: &'static Context = &Context {
        #[cfg(feature = "dates")]
        clock: Clock::Unknown,
    };
}

#[cfg(feature = "dates")]
#[cfg_attr(docsrs, doc(cfg(feature = "dates")))]
impl Context {
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
        }
    }

    /// The current date in this context's zone.
    pub fn today(&self) -> Date {
        match &self.clock {
            Clock::Fixed(date) => *date,
            // Only this crate's walk holds an undated context, and asks it `known_today`.
            Clock::Local | Clock::Unknown => local_today(),
            Clock::System(zone) => jiff::Timestamp::now()
                .to_zoned_datetime(zone.clone())
                .date(),
        }
    }

    /// The current date, if this context knows one (all but [`Context::UNDATED`]).
    #[inline]
    pub(crate) fn known_today(&self) -> Option<Date> {
        match self.clock {
            Clock::Unknown => None,
            _ => Some(self.today()),
        }
    }
}

/// Today in the system's zone. The date holds until the next local midnight, so each
/// thread keeps it with the span it is valid for and reads only the clock until then; the
/// span is cut to a minute, so that a change of the system's zone is seen soon.
#[cfg(feature = "dates")]
fn local_today() -> Date {
    use std::cell::Cell;
    use std::time::{Duration, SystemTime};
    thread_local! {
        /// The date, and the span of the system clock it holds for.
        static TODAY: Cell<Option<(SystemTime, SystemTime, Date)>> = const { Cell::new(None) };
    }
    if !crate::fast::on(crate::fast::FastPath::Today) {
        return jiff::Timestamp::now()
            .to_zoned_datetime(TimeZone::system())
            .date();
    }
    // The system clock as is: no conversion on the path every call takes.
    let now = SystemTime::now();
    if let Some((from, until, date)) = TODAY.get()
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
    let system = |t: jiff::Timestamp| {
        let since = Duration::try_from(t.duration_since(jiff::Timestamp::UNIX_EPOCH)).ok()?;
        SystemTime::UNIX_EPOCH.checked_add(since)
    };
    if let (Ok(from), Ok(midnight), Ok(minute)) = (from, midnight, minute)
        && let (Some(from), Some(until)) = (system(from), system(midnight.min(minute)))
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

#[cfg(all(test, feature = "dates"))]
mod tests {
    use super::*;

    #[test]
    fn every_call_reads_the_clock() {
        // A context made once (a server's) answers with the date of the day it is
        // asked on: it keeps nothing. (Read between two readings of the clock, in case
        // midnight passes.)
        let utc = Context::in_zone(TimeZone::UTC);
        let clock = || {
            jiff::Timestamp::now()
                .to_zoned_datetime(TimeZone::UTC)
                .date()
        };
        let before = clock();
        let today = utc.today();
        assert!(today == before || today == clock());
        let before = local_today();
        let today = Context::now().today();
        assert!(today == before || today == local_today());
        assert_eq!(
            Context::on(2026, 11, 30).unwrap().today(),
            jiff::civil::date(2026, 11, 30)
        );
    }
}

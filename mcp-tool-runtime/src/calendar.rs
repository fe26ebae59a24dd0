//! The Gregorian calendar, for what needs one without the `dates` feature (and jiff):
//! the `format: "date"` check of a schemars-typed field, and the RFC 3339 time a tool
//! failure's `retryNotBefore` is written in.

use std::time::{SystemTime, UNIX_EPOCH};

/// Whether `text` is a day of the calendar written yyyy-mm-dd: RFC 3339's `full-date`,
/// JSON Schema's format `"date"` (`2026-02-30` has the shape and is no day).
pub(crate) fn is_full_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..]))
    else {
        return false;
    };
    (1..=12).contains(&month) && (1..=days_in_month(year, month)).contains(&day)
}

fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The date of the day `days` after 1970-01-01, for `days` from 0 (Howard Hinnant's
/// `civil_from_days`: the year counted from March, so that February's leap day ends it).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// `at` as an RFC 3339 UTC time with milliseconds (`2026-12-02T13:07:39.123Z`), the form
/// MCP's other timestamps take; `None` before 1970 or past the year 9999.
pub(crate) fn rfc3339_millis(at: SystemTime) -> Option<String> {
    let since = at.duration_since(UNIX_EPOCH).ok()?;
    let secs = since.as_secs();
    let (year, month, day) = civil_from_days(secs / 86_400);
    if year > 9999 {
        return None;
    }
    let of_day = secs % 86_400;
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_millis()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn full_dates_are_days_of_the_calendar() {
        for ok in [
            "2026-11-30",
            "2024-02-29",
            "2000-02-29",
            "0000-01-01",
            "9999-12-31",
        ] {
            assert!(is_full_date(ok), "{ok}");
        }
        for bad in [
            "2026-02-29",
            "1900-02-29",
            "2026-02-30",
            "2026-04-31",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "2026-1-01",
            "2026/01/01",
            "2026-01-01T",
            "+026-01-01",
            "２026-01-01",
        ] {
            assert!(!is_full_date(bad), "{bad}");
        }
    }

    #[test]
    fn times_are_written_in_utc_as_rfc_3339() {
        let at = |secs: u64, millis: u64| {
            rfc3339_millis(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis))
                .unwrap()
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_796_217_459, 123), "2026-12-02T13:17:39.123Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
        assert_eq!(at(253_402_300_799, 0), "9999-12-31T23:59:59.000Z");
        assert_eq!(
            rfc3339_millis(UNIX_EPOCH + Duration::from_secs(253_402_300_800)),
            None
        );
        assert_eq!(rfc3339_millis(UNIX_EPOCH - Duration::from_secs(1)), None);
    }

    /// Every day from 1970 to 2200 against jiff's calendar, and the reading of
    /// yyyy-mm-dd against the date rules' (both jiff's, with the feature).
    #[cfg(feature = "dates")]
    #[test]
    fn the_calendar_is_jiffs() {
        let mut date = jiff::civil::date(1970, 1, 1);
        for days in 0..84_000u64 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(
                (y, m, d),
                (date.year() as u64, date.month() as u64, date.day() as u64),
                "{days}"
            );
            for text in [date.to_string(), format!("{y:04}-{m:02}-{:02}", d + 1)] {
                assert_eq!(
                    is_full_date(&text),
                    crate::rules::strftime::parse(crate::rules::strftime::ISO_DATE, &text)
                        .is_some(),
                    "{text}"
                );
            }
            date = date.tomorrow().unwrap();
        }
    }
}

//! Dates in a strftime format, as the `future_date` and `past_date` rules read and write them.

use jiff::civil::Date;

use crate::fast::FastPath;

/// The ISO 8601 calendar date format, the default of the date rules. With it the schema
/// also says `"format": "date"`.
pub const ISO_DATE: &str = "%Y-%m-%d";

/// Reads `input` as a date in `format`, strictly: the input must be exactly what
/// formatting that date gives (`05/01/2027`, not `5/1/2027`), with a year from 0 to
/// 9999, so that the ISO format agrees with JSON Schema's `"format": "date"`.
pub fn parse(format: &str, input: &str) -> Option<Date> {
    if crate::fast::on(FastPath::Dates)
        && let Some(fast) = parse_numeric(format, input)
    {
        return fast;
    }
    let date = Date::strptime(format, input).ok()?;
    if !(0..=9999).contains(&date.year()) {
        return None;
    }
    (format_date(format, date) == input).then_some(date)
}

/// [`parse`] without allocating, for formats made only of `%d`, `%m`, `%Y`, `%F` and
/// literal ASCII: each is read at the width formatting writes (2, 2, 4 digits), which is
/// exactly what the round trip of [`parse`] accepts. `None` when the format has other
/// directives; `Some(None)` when the input is not a date in it.
fn parse_numeric(format: &str, input: &str) -> Option<Option<Date>> {
    let format = format.as_bytes();
    let input = input.as_bytes();
    if let Some(parsed) = parse_three(format, input) {
        return Some(parsed);
    }
    if !format.is_ascii() {
        return None;
    }
    let (mut year, mut month, mut day) = (None, None, None);
    let (mut f, mut i) = (0, 0);
    // Reads `width` ASCII digits at `i`.
    let digits = |i: &mut usize, width: usize| -> Option<i16> {
        let field = input.get(*i..*i + width)?;
        *i += width;
        field.iter().try_fold(0i16, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + i16::from(b - b'0'))
        })
    };
    while f < format.len() {
        if format[f] != b'%' {
            if input.get(i) != Some(&format[f]) {
                return Some(None);
            }
            f += 1;
            i += 1;
            continue;
        }
        let directive = *format.get(f + 1)?;
        f += 2;
        let parsed = match directive {
            b'Y' => digits(&mut i, 4).map(|y| year = Some(y)),
            b'm' => digits(&mut i, 2).map(|m| month = Some(m)),
            b'd' => digits(&mut i, 2).map(|d| day = Some(d)),
            b'F' => (|| {
                year = Some(digits(&mut i, 4)?);
                (input.get(i) == Some(&b'-')).then_some(())?;
                i += 1;
                month = Some(digits(&mut i, 2)?);
                (input.get(i) == Some(&b'-')).then_some(())?;
                i += 1;
                day = Some(digits(&mut i, 2)?);
                Some(())
            })(),
            _ => return None,
        };
        if parsed.is_none() {
            return Some(None);
        }
    }
    if i != input.len() {
        return Some(None);
    }
    // A format without all three parts is left to jiff's reading.
    let (year, month, day) = (year?, month?, day?);
    let (Ok(month), Ok(day)) = (i8::try_from(month), i8::try_from(day)) else {
        return Some(None);
    };
    Some(Date::new(year, month, day).ok())
}

/// [`parse_numeric`] for the formats most dates are written in: the day, the month
/// and the year once each, one ASCII character between them (`%d/%m/%Y`, `%Y-%m-%d`,
/// `%m.%d.%Y`). Each part is at a place known from the format alone, so the input is
/// read without walking the format. `None` for a format of another shape.
fn parse_three(format: &[u8], input: &[u8]) -> Option<Option<Date>> {
    let [b'%', first, sep1, b'%', second, sep2, b'%', third] = *format else {
        return None;
    };
    let width = |part: u8| match part {
        b'd' | b'm' => Some(2),
        b'Y' => Some(4),
        _ => None,
    };
    let (w1, w2, w3) = (width(first)?, width(second)?, width(third)?);
    // A `%` between is half of `%%`, which makes what follows a literal.
    let literal = |sep: u8| sep.is_ascii() && sep != b'%';
    if first == second || second == third || first == third || !literal(sep1) || !literal(sep2) {
        return None;
    }
    let (at2, at3) = (w1 + 1, w1 + w2 + 2);
    if input.len() != at3 + w3 || input[w1] != sep1 || input[at3 - 1] != sep2 {
        return Some(None);
    }
    let (mut year, mut month, mut day) = (0, 0, 0);
    for (part, at, width) in [(first, 0, w1), (second, at2, w2), (third, at3, w3)] {
        let mut n = 0i16;
        for &b in &input[at..at + width] {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                return Some(None);
            }
            n = n * 10 + i16::from(digit);
        }
        match part {
            b'Y' => year = n,
            b'm' => month = n,
            _ => day = n,
        }
    }
    // Two digits each: a month and a day fit in an `i8`.
    Some(Date::new(year, month as i8, day as i8).ok())
}

/// `date` written in `format`.
pub fn format_date(format: &str, date: Date) -> String {
    let mut out = String::with_capacity(format.len() + 4);
    push_date(&mut out, format, date);
    out
}

/// `date` written in `format` at the end of `out`.
pub(crate) fn push_date(out: &mut String, format: &str, date: Date) {
    let start = out.len();
    let by_jiff = |out: &mut String| {
        out.truncate(start);
        out.push_str(&format_with_jiff(format, date));
    };
    if !crate::fast::on(FastPath::Dates) {
        return by_jiff(out);
    }
    // The numeric directives by hand, as `parse` reads them; anything else, jiff.
    let bytes = format.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                // jiff pads a year below 1000 its own way: it writes those.
                let year = (1000..=9999)
                    .contains(&date.year())
                    .then(|| i32::from(date.year()));
                let (month, day) = (i32::from(date.month()), i32::from(date.day()));
                match (bytes.get(i + 1), year) {
                    (Some(b'd'), _) => push_padded(out, day, 2),
                    (Some(b'm'), _) => push_padded(out, month, 2),
                    (Some(b'Y'), Some(year)) => push_padded(out, year, 4),
                    (Some(b'F'), Some(year)) => {
                        push_padded(out, year, 4);
                        out.push('-');
                        push_padded(out, month, 2);
                        out.push('-');
                        push_padded(out, day, 2);
                    }
                    _ => return by_jiff(out),
                }
                i += 2;
            }
            b if b.is_ascii() => {
                out.push(char::from(b));
                i += 1;
            }
            _ => return by_jiff(out),
        }
    }
}

fn format_with_jiff(format: &str, date: Date) -> String {
    // The derive checked the format; should it still fail, the ISO form is clear.
    jiff::fmt::strtime::format(format, date).unwrap_or_else(|_| date.to_string())
}

/// `value` in decimal, zero-padded to `width` digits.
fn push_padded(out: &mut String, value: i32, width: u32) {
    let mut divisor = 10i32.pow(width - 1);
    while divisor > 0 {
        out.push(char::from(b'0' + (value / divisor % 10) as u8));
        divisor /= 10;
    }
}

/// One piece of a date format's shape: a run of digits, or a character as is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Digits(usize),
    Literal(char),
}

/// The shape of every date written in `format`, when it is made only of zero-padded
/// numbers and literal characters: `%d/%m/%Y` is 2 digits, `/`, 2 digits, `/`, 4 digits.
/// `None` for a format with other directives (month names, unpadded numbers).
fn shape(format: &str) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            pieces.push(Piece::Literal(c));
            continue;
        }
        match chars.next()? {
            'Y' => pieces.push(Piece::Digits(4)),
            'd' | 'm' | 'y' | 'H' | 'M' | 'S' => pieces.push(Piece::Digits(2)),
            'j' => pieces.push(Piece::Digits(3)),
            'F' => pieces.extend([
                Piece::Digits(4),
                Piece::Literal('-'),
                Piece::Digits(2),
                Piece::Literal('-'),
                Piece::Digits(2),
            ]),
            '%' => pieces.push(Piece::Literal('%')),
            _ => return None,
        }
    }
    Some(pieces)
}

/// The shape of `format` as a JSON Schema `pattern` (`^[0-9]{2}/[0-9]{2}/[0-9]{4}$`),
/// written in the syntax ECMA-262 and Rust's `regex` read alike; `None` when the format
/// has no fixed shape (see [`shape`]).
pub fn pattern(format: &str) -> Option<String> {
    let mut out = String::from("^");
    for piece in shape(format)? {
        match piece {
            Piece::Digits(n) => {
                out.push_str("[0-9]{");
                out.push_str(&n.to_string());
                out.push('}');
            }
            Piece::Literal(c) => {
                if "\\.+*?()|[]{}^$".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
        }
    }
    out.push('$');
    Some(out)
}

/// Whether `input` has the shape of a date in `format` (digits where the numbers go),
/// whatever the numbers: `2026-02-30` has the shape of `%Y-%m-%d` and is no date.
pub fn has_shape(format: &str, input: &str) -> bool {
    let Some(pieces) = shape(format) else {
        return false;
    };
    let mut chars = input.chars();
    pieces.iter().all(|piece| match *piece {
        Piece::Digits(n) => (0..n).all(|_| chars.next().is_some_and(|c| c.is_ascii_digit())),
        Piece::Literal(l) => chars.next() == Some(l),
    }) && chars.next().is_none()
}

/// The format as a person writes it: `%d/%m/%Y` is `dd/mm/yyyy`.
pub fn human_format(format: &str) -> String {
    let mut out = String::with_capacity(2 * format.len());
    push_human_format(&mut out, format);
    out
}

/// [`human_format`] at the end of `out`.
pub(crate) fn push_human_format(out: &mut String, format: &str) {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else { break };
        out.push_str(match d {
            'Y' => "yyyy",
            'y' => "yy",
            'm' => "mm",
            'd' => "dd",
            'e' => "d",
            'j' => "ddd (day of the year)",
            'b' | 'h' => "Mon",
            'B' => "Month",
            'a' => "Ddd",
            'A' => "Weekday",
            'F' => "yyyy-mm-dd",
            'D' => "mm/dd/yy",
            '%' => "%",
            _ => "?",
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_strictly() {
        let d = Date::new(2027, 1, 5).unwrap();
        assert_eq!(parse("%d/%m/%Y", "05/01/2027"), Some(d));
        assert_eq!(parse("%d/%m/%Y", "5/1/2027"), None);
        assert_eq!(parse("%d/%m/%Y", "31/02/2027"), None);
        assert_eq!(parse("%d/%m/%Y", "05/01/2027 "), None);
        assert_eq!(parse(ISO_DATE, "2027-01-05"), Some(d));
        assert_eq!(parse(ISO_DATE, "2027-1-5"), None);
        assert_eq!(parse(ISO_DATE, "20270105"), None);
        assert_eq!(parse(ISO_DATE, "-0001-01-05"), None);
        assert_eq!(parse(ISO_DATE, "12027-01-05"), None);
        assert_eq!(parse("%d %B %Y", "05 January 2027"), Some(d));
    }

    #[test]
    fn the_fast_path_reads_as_the_round_trip_does() {
        fn slow(format: &str, input: &str) -> Option<Date> {
            let date = Date::strptime(format, input).ok()?;
            if !(0..=9999).contains(&date.year()) {
                return None;
            }
            (format_date(format, date) == input).then_some(date)
        }
        let formats = [
            "%d/%m/%Y",
            ISO_DATE,
            "%F",
            "%Y%m%d",
            "%m.%d.%Y",
            "%d/%m",
            "%Y/%d/%m",
            "%d-%m-%Y",
            "%d%%%m%%%Y",
            "%Y%%d-%m",
            "%d/%d/%Y",
            "%d/%m/%y",
            "%d é%m/%Y",
        ];
        let mut inputs = vec![
            "05/01/2027",
            "5/1/2027",
            "31/02/2027",
            "29/02/2028",
            "29/02/2027",
            "00/01/2027",
            "05/13/2027",
            "05/01/0000",
            "05/01/027",
            "05/01/20277",
            "2027-01-05",
            "2027-1-05",
            "0000-01-01",
            "9999-12-31",
            "20270105",
            "01.05.2027",
            "05/01",
            "",
            "٠٥/01/2027",
            "+5/01/2027",
            " 05/01/2027",
            "05/01/2027 ",
            "05-01-2027",
            "2027-01-0a",
            "2027/05/01",
            "2027/31/12",
            "05%01%2027",
            "05/01/27",
            "05 é01/2027",
            "2027%d-05",
            "2027%05-01",
        ];
        let owned: Vec<String> = (0..400)
            .map(|n| format!("{:02}/{:02}/{:04}", n % 33, n % 14, 2020 + n % 9))
            .collect();
        inputs.extend(owned.iter().map(String::as_str));
        for format in formats {
            for input in &inputs {
                assert_eq!(
                    parse(format, input),
                    slow(format, input),
                    "{format} {input:?}"
                );
            }
        }
        assert_eq!(
            parse_numeric("%d %B %Y", "05 January 2027"),
            None,
            "not numeric"
        );
    }

    #[test]
    fn the_fast_format_writes_what_jiff_writes() {
        let formats = [
            "%d/%m/%Y",
            "%Y-%m-%d",
            "%F",
            "%m.%d.%y",
            "%e %B %Y",
            "%d %b, %Y",
            "%Y%m%d",
            "ça %d",
        ];
        for (y, m, d) in [
            (2026, 11, 30),
            (2027, 1, 5),
            (1999, 12, 31),
            (10, 2, 3),
            (9999, 9, 9),
        ] {
            let date = jiff::civil::date(y, m, d);
            for format in formats {
                assert_eq!(
                    format_date(format, date),
                    format_with_jiff(format, date),
                    "{format} {date}"
                );
            }
        }
    }

    #[test]
    fn a_numeric_format_has_a_pattern_that_every_date_written_in_it_matches() {
        assert_eq!(
            pattern("%d/%m/%Y").as_deref(),
            Some("^[0-9]{2}/[0-9]{2}/[0-9]{4}$")
        );
        assert_eq!(
            pattern("%F").as_deref(),
            Some("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
        );
        assert_eq!(
            pattern("%m.%d.%y").as_deref(),
            Some("^[0-9]{2}\\.[0-9]{2}\\.[0-9]{2}$")
        );
        assert_eq!(pattern("%Y%j").as_deref(), Some("^[0-9]{4}[0-9]{3}$"));
        assert_eq!(pattern("%d %B %Y"), None);
        assert_eq!(pattern("%e/%m/%Y"), None);
        let formats = [
            "%d/%m/%Y", ISO_DATE, "%F", "%Y%m%d", "%m.%d.%y", "%Y%j", "(%d)",
        ];
        for (y, m, d) in [
            (2026, 11, 30),
            (2027, 1, 5),
            (10, 2, 3),
            (0, 1, 1),
            (9999, 12, 31),
        ] {
            let date = jiff::civil::date(y, m, d);
            for format in formats {
                let written = format_date(format, date);
                let regex = regex::Regex::new(&pattern(format).unwrap()).unwrap();
                assert!(regex.is_match(&written), "{format} {written}");
                assert!(has_shape(format, &written), "{format} {written}");
            }
        }
        assert!(has_shape(ISO_DATE, "2026-02-30"));
        assert!(!has_shape(ISO_DATE, "2026-2-3"));
        assert!(!has_shape(ISO_DATE, "2026-02-300"));
        assert!(!has_shape("%d %B %Y", "05 January 2027"));
    }

    #[test]
    fn formats_for_people() {
        assert_eq!(human_format("%d/%m/%Y"), "dd/mm/yyyy");
        assert_eq!(human_format(ISO_DATE), "yyyy-mm-dd");
        assert_eq!(human_format("%d %B %Y"), "dd Month yyyy");
        assert_eq!(
            format_date("%d/%m/%Y", Date::new(2026, 11, 30).unwrap()),
            "30/11/2026"
        );
    }

    #[test]
    fn a_date_is_written_after_what_the_text_has_already() {
        // By hand, and by jiff for a format with a name in it (`%B`).
        let date = Date::new(2026, 11, 30).unwrap();
        for (format, written) in [("%d/%m/%Y", "30/11/2026"), ("%d %B %Y", "30 November 2026")] {
            let mut text = String::from("a date after ");
            push_date(&mut text, format, date);
            assert_eq!(text, format!("a date after {written}"));
        }
    }
}

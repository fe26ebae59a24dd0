//! Dates in a strftime format, as the `future_date` and `past_date` rules read them.

use jiff::civil::Date;

/// The ISO 8601 calendar date format, the default of the date rules. With it the schema
/// also says `"format": "date"`.
pub const ISO_DATE: &str = "%Y-%m-%d";

/// Reads `input` as a date in `format`, strictly: the input must be exactly what
/// formatting that date gives (`05/01/2027`, not `5/1/2027`), with a year from 0 to
/// 9999, so that the ISO format agrees with JSON Schema's `"format": "date"`.
pub fn parse(format: &str, input: &str) -> Option<Date> {
    let date = Date::strptime(format, input).ok()?;
    if !(0..=9999).contains(&date.year()) {
        return None;
    }
    (format_date(format, date) == input).then_some(date)
}

/// `date` written in `format`.
pub fn format_date(format: &str, date: Date) -> String {
    // The derive checked the format; should it still fail, the ISO form is clear.
    jiff::fmt::strtime::format(format, date).unwrap_or_else(|_| date.to_string())
}

/// The format as a person writes it: `%d/%m/%Y` is `dd/mm/yyyy`.
pub fn human_format(format: &str) -> String {
    let mut out = String::new();
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
    out
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
    fn formats_for_people() {
        assert_eq!(human_format("%d/%m/%Y"), "dd/mm/yyyy");
        assert_eq!(human_format(ISO_DATE), "yyyy-mm-dd");
        assert_eq!(human_format("%d %B %Y"), "dd Month yyyy");
        assert_eq!(
            format_date("%d/%m/%Y", Date::new(2026, 11, 30).unwrap()),
            "30/11/2026"
        );
    }
}

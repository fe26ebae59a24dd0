//! What the string formats of JSON Schema 2020-12 mean, for the `email`, `url` and `uuid`
//! rules: each as its RFC defines it.
//!
//! Edges where common validators disagree, and the choice made here:
//! - `email` is an RFC 5321 `Mailbox`: ASCII only (RFC 6531 addresses are `idn-email`),
//!   a dot-string or quoted local part of at most 64 octets, and a domain of LDH labels
//!   or an address literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`). A domain needs no dot
//!   (`admin@localhost` is a mailbox), and comments and folding white space of RFC 5322
//!   are not allowed.
//! - `url` is an RFC 3986 `URI`: a scheme, then a hier-part, query and fragment of the
//!   characters RFC 3986 allows, with percent escapes of two hex digits. Relative
//!   references are rejected; a fragment is allowed; non-ASCII characters (IRIs) are not.
//! - `uuid` is the RFC 4122 string form: 8-4-4-4-12 hex digits in either case, any
//!   version and variant, no braces or `urn:uuid:` prefix.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Whether `s` is an RFC 5321 mailbox.
pub fn is_email(s: &str) -> bool {
    let at = if s.starts_with('"') {
        // A quoted local part may hold `@`: the mailbox's own is the last.
        s.bytes().rposition(|b| b == b'@')
    } else {
        // A dot-atom holds none: the first byte that is neither atext nor a dot ends it.
        s.bytes()
            .position(|b| !is(ATEXT, b) && b != b'.')
            .filter(|&i| s.as_bytes()[i] == b'@')
    };
    let Some(at) = at else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    local_part_ok(local) && domain_ok(domain)
}

/// What a byte may be in a mailbox: `ATEXT`, RFC 5321's atext (a dot-atom's letters,
/// digits and `!#$%&'*+-/=?^_`{|}~`); `LABEL`, a host name label's letters and digits.
/// One table read a byte instead of a chain of comparisons: every email field of every
/// call goes through here.
const ATEXT: u8 = 1;
const LABEL: u8 = 2;
static MAILBOX_BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() {
            table[c] = ATEXT | LABEL;
        }
        c += 1;
    }
    let specials = b"!#$%&'*+-/=?^_`{|}~";
    let mut i = 0;
    while i < specials.len() {
        table[specials[i] as usize] |= ATEXT;
        i += 1;
    }
    table
};

fn is(class: u8, c: u8) -> bool {
    MAILBOX_BYTES[c as usize] & class != 0
}

fn local_part_ok(local: &str) -> bool {
    if local.is_empty() || local.len() > 64 {
        return false;
    }
    let bytes = local.as_bytes();
    if bytes[0] == b'"' {
        // Quoted-string: qtextSMTP or quoted-pairSMTP between quotes.
        if bytes.len() < 2 || bytes[bytes.len() - 1] != b'"' {
            return false;
        }
        let inner = &bytes[1..bytes.len() - 1];
        let mut i = 0;
        while i < inner.len() {
            match inner[i] {
                b'\\' => {
                    if i + 1 >= inner.len() || !(32..=126).contains(&inner[i + 1]) {
                        return false;
                    }
                    i += 2;
                }
                b'"' => return false,
                c if (32..=126).contains(&c) => i += 1,
                _ => return false,
            }
        }
        return true;
    }
    // Dot-atoms: atext runs separated by single dots, none at either end.
    let mut after_dot = true;
    for &c in bytes {
        if c == b'.' {
            if after_dot {
                return false;
            }
            after_dot = true;
        } else if is(ATEXT, c) {
            after_dot = false;
        } else {
            return false;
        }
    }
    !after_dot
}

fn domain_ok(domain: &str) -> bool {
    if let Some(literal) = domain.strip_prefix('[') {
        let Some(literal) = literal.strip_suffix(']') else {
            return false;
        };
        if let Some(v6) = literal.strip_prefix("IPv6:") {
            return v6.parse::<Ipv6Addr>().is_ok();
        }
        return is_ipv4(literal);
    }
    is_hostname(domain)
}

fn is_ipv4(s: &str) -> bool {
    // std accepts exactly dotted-quad decimal without leading zeros.
    s.parse::<Ipv4Addr>().is_ok()
}

/// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens,
/// each 1 to 63 octets, 255 at most in all.
fn is_hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 255 {
        return false;
    }
    // Labels of 1 to 63 letters, digits and hyphens, not starting or ending with one.
    let (mut len, mut last) = (0, b'.');
    for &c in s.as_bytes() {
        if c == b'.' {
            if len == 0 || last == b'-' {
                return false;
            }
            len = 0;
        } else if is(LABEL, c) || (c == b'-' && len > 0) {
            len += 1;
            if len > 63 {
                return false;
            }
        } else {
            return false;
        }
        last = c;
    }
    len > 0 && last != b'-'
}

/// Whether `s` is an RFC 3986 URI (absolute, with an optional fragment).
pub fn is_uri(s: &str) -> bool {
    let Some(colon) = s.find(':') else {
        return false;
    };
    let scheme = &s.as_bytes()[..colon];
    if scheme.is_empty()
        || !scheme[0].is_ascii_alphabetic()
        || !scheme
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    {
        return false;
    }
    let rest = &s[colon + 1..];
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (hier, query) = match rest.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (rest, None),
    };
    let path = if let Some(after) = hier.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        if !authority_ok(&after[..end]) {
            return false;
        }
        &after[end..]
    } else {
        hier
    };
    chars_ok(path, b":@/")
        && query.is_none_or(|q| chars_ok(q, b":@/?"))
        && fragment.is_none_or(|f| chars_ok(f, b":@/?"))
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(c: u8) -> bool {
    b"!$&'()*+,;=".contains(&c)
}

/// Whether every character is unreserved, a sub-delimiter, one of `extra`, or a
/// percent escape with two hex digits.
fn chars_ok(s: &str, extra: &[u8]) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
        } else if is_unreserved(c) || is_sub_delim(c) || extra.contains(&c) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

fn authority_ok(authority: &str) -> bool {
    let (userinfo, hostport) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    if userinfo.is_some_and(|u| !chars_ok(u, b":")) {
        return false;
    }
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let Some((literal, after)) = v6.split_once(']') else {
            return false;
        };
        let ok = if let Some(future) = literal.strip_prefix(['v', 'V']) {
            // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            future.split_once('.').is_some_and(|(ver, rest)| {
                !ver.is_empty()
                    && ver.bytes().all(|c| c.is_ascii_hexdigit())
                    && !rest.is_empty()
                    && rest
                        .bytes()
                        .all(|c| is_unreserved(c) || is_sub_delim(c) || c == b':')
            })
        } else {
            literal.parse::<Ipv6Addr>().is_ok()
        };
        if !ok {
            return false;
        }
        match after {
            "" => (literal, None),
            _ => match after.strip_prefix(':') {
                Some(port) => (literal, Some(port)),
                None => return false,
            },
        }
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    // An IP literal was checked above; a reg-name may be empty (`file:///etc/hosts`).
    let host_ok = hostport.starts_with('[') || chars_ok(host, b"");
    host_ok && port.is_none_or(|p| p.bytes().all(|c| c.is_ascii_digit()))
}

/// Whether `s` is a UUID in the RFC 4122 string form.
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in [
            "a@example.com",
            "first.last+tag@sub.example.co",
            "admin@localhost",
            "\"john doe\"@example.com",
            "\"a\\\"b\"@example.com",
            "user@[192.0.2.1]",
            "user@[IPv6:2001:db8::1]",
            "x!#$%&'*+-/=?^_`{|}~@example.com",
        ] {
            assert!(is_email(ok), "{ok} should be an email");
        }
        for bad in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a..b@example.com",
            ".a@example.com",
            "a.@example.com",
            "a b@example.com",
            "a@-example.com",
            "a@example-.com",
            "a@exa_mple.com",
            "a@example..com",
            "é@example.com",
            "a@exämple.com",
            "a@[300.0.0.1]",
            "a@[IPv6:zz]",
            "\"unterminated@example.com",
            &format!("{}@example.com", "a".repeat(65)),
            &format!("a@{}.com", "b".repeat(64)),
        ] {
            assert!(!is_email(bad), "{bad} should not be an email");
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "https://example.com",
            "https://example.com/a/b?q=1&r=%20#frag",
            "http://user:pw@example.com:8080/",
            "http://[2001:db8::1]:443/x",
            "http://[v7.fe80::a+en1]/",
            "mailto:someone@example.com",
            "urn:isbn:0451450523",
            "file:///etc/hosts",
            "tel:+1-201-555-0123",
            "https://example.com:",
        ] {
            assert!(is_uri(ok), "{ok} should be a uri");
        }
        for bad in [
            "",
            "example.com",
            "/relative/path",
            "//example.com/x",
            "1http://example.com",
            "ht tp://example.com",
            "https://exa mple.com",
            "https://example.com/a b",
            "https://example.com/%zz",
            "https://example.com/%2",
            "https://example.com/#a#b",
            "https://[::1/",
            "https://[not-an-ip]/",
            "https://example.com:80a/",
            "https://exämple.com/",
            "https://example.com/<script>",
        ] {
            assert!(!is_uri(bad), "{bad} should not be a uri");
        }
    }

    #[test]
    fn uuids() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_uuid("123E4567-E89B-12D3-A456-426614174000"));
        assert!(is_uuid("00000000-0000-0000-0000-000000000000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(!is_uuid("{123e4567-e89b-12d3-a456-426614174000}"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400g"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-4266141740000"));
        assert!(!is_uuid("urn:uuid:123e4567-e89b-12d3-a456-426614174000"));
    }
}

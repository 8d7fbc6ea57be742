//! The few JSON and base64 encoders the page needs.

/// A finite number in shortest round-trip form (non-finite values become 0).
pub fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "0".into()
    }
}

/// A JSON array of numbers.
pub fn nums(xs: &[f64]) -> String {
    let mut s = String::with_capacity(2 + 12 * xs.len());
    s.push('[');
    for (k, &x) in xs.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str(&num(x));
    }
    s.push(']');
    s
}

/// A JSON string; `<`, `>` and `&` are escaped too, so the text is safe inside `<script>`.
pub fn string(t: &str) -> String {
    let mut s = String::from("\"");
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&') => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Standard base64 with padding (RFC 4648).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= c.len() {
                s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        for (i, o) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn strings_are_script_safe() {
        assert_eq!(string("a\"</script>\n"), "\"a\\\"\\u003c/script\\u003e\\u000a\"");
    }
}

//! How a licence or a serial the visitor typed or pasted is tidied before it is checked (issue
//! 29): whitespace anywhere is dropped (a code has none; a paste brings it), and codes printed
//! in capitals are upper-cased. The browser does the same (`web/src/lib/typedCode.ts`).

pub fn tidy_code(input: &str, upper_case: bool) -> String {
    let tidy: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    if upper_case {
        tidy.to_uppercase()
    } else {
        tidy
    }
}

#[cfg(test)]
mod tests {
    use super::tidy_code;

    #[test]
    fn spaces_go_and_capitals_come_where_asked() {
        assert_eq!(tidy_code(" ps2401br 535254 ", true), "PS2401BR535254");
        assert_eq!(tidy_code("\tEXA-2026 abcd\n", false), "EXA-2026abcd");
    }
}

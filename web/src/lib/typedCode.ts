// How a licence or a serial the visitor typed or pasted is tidied before it is checked (issue
// 29): spaces anywhere are dropped (a code has none; a paste brings them), and codes printed in
// capitals are upper-cased. The same as events/src/flow/typed_code.rs.

export function tidyCode(input: string, upperCase: boolean): string {
  const tidy = input.replace(/\s+/gu, '');
  return upperCase ? tidy.toUpperCase() : tidy;
}

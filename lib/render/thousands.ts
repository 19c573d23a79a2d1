/**
 * A whole number with thousands separators, as en-US writes it (`12,345`). Written out rather than
 * `toLocaleString("en-US")`, whose first call in a process loads the ICU locale data: about 25 ms
 * of every Action run's start for a handful of commas.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}

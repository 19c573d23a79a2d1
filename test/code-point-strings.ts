/**
 * Strings of any code points but lone surrogates: fast-check's `fc.string({ unit: "binary" })`,
 * the same values from the same seed. fast-check builds its own unit as a map over all 1.1 million
 * code points, and reading a string back into choices (which it does for a few strings as soon as
 * the arbitrary is made) first fills a reverse map of every one of them: seconds of CPU in each
 * test file that uses it. This unit reads a code point back with arithmetic.
 */
import fc from "fast-check";

const FIRST_SURROGATE = 0xd800;
const SURROGATES = 0xe000 - FIRST_SURROGATE;

/** One code point: choice `n` is code point `n`, skipping the surrogates, as fast-check orders them. */
const codePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (choice) => String.fromCodePoint(choice < FIRST_SURROGATE ? choice : choice + SURROGATES),
  (value) => {
    const point = typeof value === "string" ? value.codePointAt(0) : undefined;
    if (point === undefined || String.fromCodePoint(point) !== value) throw new Error("not one code point");
    if (point >= FIRST_SURROGATE && point < FIRST_SURROGATE + SURROGATES) throw new Error("a lone surrogate");
    return point < FIRST_SURROGATE ? point : point - SURROGATES;
  },
);

/** `fc.string({ ...constraints, unit: "binary" })`, without its start-up cost. */
export function codePointString(constraints: Omit<fc.StringConstraints, "unit"> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: codePoint });
}

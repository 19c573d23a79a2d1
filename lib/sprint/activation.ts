/** A milestone is an active sprint when its description has a line `locus: active`. */

const ACTIVE_LINE = /^[ \t]*locus[ \t]*:[ \t]*active[ \t]*$/im;

export function isActiveSprint(description: string | null | undefined): boolean {
  return description ? ACTIVE_LINE.test(description) : false;
}

/**
 * Functions take the ports they use (docs/architecture.md, "Ports"): nothing in
 * lib/ takes the whole gateway, and the functions that still take a whole
 * context only become fewer.
 */
import { describe, expect, it } from "vitest";
import { findWholeContextParams, wholeContextParams } from "../../scripts/whole-context-params.ts";

/** Today's count of whole-context parameters (modes, trigger handlers and their helpers); lower it as they narrow. */
const WHOLE_CONTEXT_CEILING = 51;

describe("whole-context parameters", () => {
  it("takes the whole gateway nowhere and a whole context no more often than before", async () => {
    const found = await findWholeContextParams();
    expect(found.filter((line) => line.endsWith(": GitHubGateway)"))).toEqual([]);
    expect(found.length).toBeLessThanOrEqual(WHOLE_CONTEXT_CEILING);
  });

  it("finds a whole type as a parameter and leaves a Pick of it alone", () => {
    const text = [
      "export function wide(gateway: GitHubGateway): void {}",
      'export const narrow = (gateway: Pick<GitHubGateway, "createComment">): void => {};',
      "const handler = async (ctx: AppContext) => ctx;",
    ].join("\n");
    expect(wholeContextParams("lib/x.ts", text)).toEqual([
      "lib/x.ts:1 wide(gateway: GitHubGateway)",
      "lib/x.ts:3 handler(ctx: AppContext)",
    ]);
  });
});

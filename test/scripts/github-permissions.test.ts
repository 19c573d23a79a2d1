/**
 * The vendored permission data is what scripts/github-permissions.ts makes of
 * GitHub's file: fed the vendored entries back in GitHub's full shape, plus
 * entries the simulator does not serve and one installation tokens cannot
 * use, it writes the committed file byte for byte.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderPermissions, servedRoutes, trimPermissions } from "../../scripts/github-permissions.ts";

const VENDORED = fileURLToPath(
  new URL("../../schema/github-permissions/fpt-2022-11-28.json", import.meta.url),
);

type Entry = {
  slug: string;
  verb: string;
  requestPath: string;
  access: string;
  "additional-permissions": boolean;
};

describe("scripts/github-permissions.ts", () => {
  it("trims GitHub's file to the served routes' installation-token entries, as committed", async () => {
    const committed = await readFile(VENDORED, "utf8");
    const vendored = JSON.parse(committed) as Record<string, { title: string; permissions: Entry[] }>;
    const full = Object.fromEntries(
      Object.entries(vendored).map(([name, { title, permissions }]) => [
        name,
        {
          title,
          displayTitle: `Repository permissions for "${title}"`,
          permissions: permissions.map((entry) => ({
            category: "x",
            subcategory: "y",
            ...entry,
            "user-to-server": true,
            "server-to-server": true,
          })),
        },
      ]),
    );
    const unserved = {
      slug: "delete-a-repository",
      verb: "delete",
      requestPath: "/repos/{owner}/{repo}",
      access: "write",
      "server-to-server": true,
      "additional-permissions": false,
    };
    const userOnly = {
      ...unserved,
      slug: "get-a-repository",
      verb: "get",
      access: "read",
      "server-to-server": false,
    };
    full["administration"]?.permissions.push({
      category: "repos",
      subcategory: "repos",
      ...unserved,
      "user-to-server": true,
    });
    full["metadata"]?.permissions.push({
      category: "repos",
      subcategory: "repos",
      ...userOnly,
      "user-to-server": true,
    });
    const pages = {
      title: "Pages",
      displayTitle: "",
      permissions: [{ ...unserved, requestPath: "/repos/{owner}/{repo}/pages" }],
    };

    const trimmed = trimPermissions({ ...full, pages }, servedRoutes());

    expect(await renderPermissions(trimmed, VENDORED)).toBe(committed);
  });
});

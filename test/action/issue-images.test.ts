/**
 * Images attached to an issue, through the bundled Action against the simulator: a writer's
 * attachment is downloaded with the run's token (the repository is private, so the simulator
 * answers only a token that can read it) and reaches the model as an image block; an image in a
 * comment by someone without write access is never fetched, even with their words let in; an
 * image on any other host is never fetched at all; and one over the size cap is left out with a
 * line on the issue while the task goes on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, reply } from "../../sandbox/anthropic-fake/script.ts";
import { startHarness, OWNER, REPO, type Harness } from "./harness.ts";
import { configForThisMachine } from "../needs-bubblewrap.ts";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

let h: Harness;
let outside: Server;
let outsideRequests = 0;
let outsideUrl: string;

beforeAll(async () => {
  h = await startHarness();
  h.repo.collaborator("wendy", "write");
  h.repo.collaborator("rita", "read");
  outside = createServer((_req, res) => {
    outsideRequests += 1;
    res.writeHead(200, { "content-type": "image/png" });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
  outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}/shot.png`;
  // Outsiders' words are let in, so that what keeps their images out is the image rule itself.
  await writeFile(
    join(h.scratch, "outsiders.yml"),
    configForThisMachine("version: 3\nprompt:\n  includeOutsiders: true\n"),
  );
  await h.git(["checkout", "--quiet", "-B", "config", "origin/main"]);
  await h.git(["add", "outsiders.yml"]);
  await h.git(["commit", "--quiet", "-m", "config: outsiders"]);
  await h.git(["push", "--quiet", "origin", "config:main"]);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => outside.close(resolve));
  await h.close();
});

const greetHi = () => [
  reply(call("edit_file", { path: "src/greet.js", old_text: "Hello, ", new_text: "Hi, " })),
  reply(call("finish", { summary: "Greeting now says Hi." })),
];

interface Block {
  readonly type: string;
  readonly text?: string;
  readonly source?: { readonly type: string; readonly media_type: string; readonly data: string };
}

function firstMessageBlocks(index: number): Block[] {
  const body = h.fake.requests[index]?.body as { messages: { content: Block[] }[] } | undefined;
  return body?.messages[0]?.content ?? [];
}

const asked = (url: string) => h.sim.requestLog.filter((entry) => entry.path === new URL(url).pathname);

describe("images attached to an issue", () => {
  it("gives a writer's attached PNG to the model as an image block, and never fetches an outsider's or another host's", async () => {
    const fullName = `${OWNER}/${REPO}`;
    const shot = h.sim.attach(fullName, PNG);
    const detail = h.sim.attach(fullName, PNG);
    const outsiders = h.sim.attach(fullName, PNG);
    const issue = await h.as("wendy").createIssue({
      title: "Fix the header",
      body: `The header overlaps the logo:\n\n![screenshot](${shot})\n\nLike here: ![elsewhere](${outsideUrl})`,
    });
    await h.as("wendy").createComment(issue.number, `Closer: <img width="300" alt="detail" src="${detail}">`);
    await h.as("rita").createComment(issue.number, `Reader: mine too ![mine](${outsiders})`);
    await h.api.setLabels(issue.number, ["locus:queued"]);
    h.fake.setScript(greetHi());
    const first = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number), "config-path": "outsiders.yml" });

    expect(run.outputs["status"]).toBe("succeeded");
    const blocks = firstMessageBlocks(first);
    const images = blocks.filter((block) => block.type === "image");
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.source).toEqual({ type: "base64", media_type: "image/png", data: PNG.toString("base64") });
    }
    const texts = blocks.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []));
    expect(texts.join("\n")).toContain("- image-1.png: from the issue description");
    expect(texts.join("\n")).toContain("- image-2.png: from a comment by @wendy");
    // The reader's words are in the prompt (config lets them in); their image was never asked for.
    expect(texts.join("\n")).toContain("Reader: mine too");
    expect(asked(outsiders)).toEqual([]);
    expect(outsideRequests).toBe(0);
    // The writer's attachment: GitHub's redirect to the signed URL, followed.
    expect(asked(shot).map((entry) => entry.status)).toEqual([302, 200]);
  });

  it("leaves out an image over the size cap with a line on the issue, and the task goes on", async () => {
    const huge = Buffer.concat([PNG, Buffer.alloc(4_000_000)]);
    const big = h.sim.attach(`${OWNER}/${REPO}`, huge);
    const issue = await h
      .as("wendy")
      .createIssue({ title: "Greet again", body: `Say Hi.\n\n![big](${big})` });
    await h.api.setLabels(issue.number, ["locus:queued"]);
    h.fake.setScript(greetHi());
    const first = h.fake.requests.length;

    const run = await h.run({ mode: "issue", issue: String(issue.number) });

    expect(run.outputs["status"]).toBe("succeeded");
    const blocks = firstMessageBlocks(first);
    expect(blocks.filter((block) => block.type === "image")).toEqual([]);
    expect(JSON.stringify(blocks)).toContain(
      "An image in the issue description: it is over the 3.75 MB limit for one image.",
    );
    const status = h.repo.repo.comments.find(
      (comment) => comment.issueNumber === issue.number && comment.body.startsWith("<!-- locus:status -->"),
    );
    const line =
      "**Images not shown to the agent:** an image in the issue description: it is over the 3.75 MB limit for one image";
    const edits = (status?.edits ?? []).map((edit) => edit.body ?? "");
    const shown = edits.findIndex((body) => body.includes(line));
    expect(shown).toBeGreaterThan(0);
    // The line stays while the agent works (its tool edits), until the task's final status.
    const working = edits.slice(shown).filter((body) => body.includes("Working"));
    expect(working.length).toBeGreaterThan(1);
    for (const body of working) expect(body).toContain(line);
  });
});

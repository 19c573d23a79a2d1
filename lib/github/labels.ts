import { z } from "zod";
import { statusOf } from "./errors.ts";
import { labelNameSchema, labelSchema } from "./schemas.ts";
import type { Transport } from "./transport-types.ts";
import type { EnsureLabelsResult, GitHubGateway, Label, LabelDef } from "./types.ts";

type LabelOps = Pick<GitHubGateway, "ensureLabels" | "createLabel" | "setLabels" | "removeLabel">;

// GitHub stores colours as six lower-case hex digits without '#'.
function colour(value: string): string {
  return value.replace(/^#/, "").toLowerCase();
}

function needsUpdate(existing: Label, def: LabelDef): boolean {
  if (colour(existing.color) !== colour(def.color)) return true;
  return def.description !== undefined && (existing.description ?? "") !== def.description;
}

function isAlreadyExists(error: unknown): boolean {
  return statusOf(error) === 422 && /already_exists|already exists/i.test(String((error as Error).message));
}

export function labelOps(t: Transport): LabelOps {
  async function createLabel(def: LabelDef): Promise<"created" | "exists"> {
    try {
      return await t.create({
        what: `label ${def.name}`,
        async send(once) {
          const created = await once.rest(
            "POST /repos/{owner}/{repo}/labels",
            {
              name: def.name,
              color: colour(def.color),
              ...(def.description === undefined ? {} : { description: def.description }),
            },
            z.object({ node_id: z.string().optional() }),
          );
          // A new label (a sprint's `order:N`) can then be set in a batched GraphQL write.
          if (created.node_id) t.labelIds.remember(def.name, created.node_id);
          return "created" as const;
        },
        // Names are unique: a label of that name is what was asked for.
        landed: async () =>
          (await t.restOrNull("GET /repos/{owner}/{repo}/labels/{name}", { name: def.name }, labelSchema))
            ? ("created" as const)
            : null,
      });
    } catch (error) {
      // Another replica (or a person) created it first, or a retry found the
      // first attempt's: the label exists, which is the goal.
      if (isAlreadyExists(error)) return "exists";
      throw error;
    }
  }

  return {
    createLabel,
    async ensureLabels(defs) {
      const existing = await t.restPages("GET /repos/{owner}/{repo}/labels", {}, labelSchema);
      // Label names are unique case-insensitively on GitHub.
      const byName = new Map(existing.map((l) => [l.name.toLowerCase(), l]));
      const result: EnsureLabelsResult = { created: [], updated: [], unchanged: [] };
      for (const def of defs) {
        const found = byName.get(def.name.toLowerCase());
        if (!found) {
          await createLabel(def);
          result.created.push(def.name);
          byName.set(def.name.toLowerCase(), {
            name: def.name,
            color: def.color,
            description: def.description ?? null,
          });
        } else if (needsUpdate(found, def)) {
          await t.rest(
            "PATCH /repos/{owner}/{repo}/labels/{name}",
            {
              name: found.name,
              color: colour(def.color),
              ...(def.description === undefined ? {} : { description: def.description }),
            },
            z.unknown(),
          );
          result.updated.push(def.name);
        } else {
          result.unchanged.push(def.name);
        }
      }
      return result;
    },
    async setLabels(issue, names) {
      const labels = await t.rest(
        "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels",
        { issue_number: issue, labels: names },
        z.array(labelNameSchema),
      );
      for (const label of labels) if (label.node_id) t.labelIds.remember(label.name, label.node_id);
      return labels.map((l) => l.name);
    },
    async removeLabel(issue, name) {
      try {
        await t.rest(
          "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
          { issue_number: issue, name },
          z.unknown(),
        );
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    },
  };
}

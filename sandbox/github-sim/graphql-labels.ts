import { GraphQLError } from "graphql";
import { databaseIdOf, forbidden, inputOf, stringField, unresolvable } from "./graphql-mutations.ts";
import { labelNode, type GraphqlContext } from "./graphql-resolvers.ts";
import type { Label } from "./model.ts";
import { findLabel, hasPermission, permissionOf } from "./store.ts";

// `createLabel`, as GitHub's schema has it: the repository by global id, a name, a six-digit colour
// without `#`, an optional description; write access on the repository, as its REST twin
// (POST /repos/{owner}/{repo}/labels) takes; a name the repository has already is refused.
// https://docs.github.com/graphql/reference/mutations#createlabel

type Args = Record<string, unknown>;

function unprocessable(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type: "UNPROCESSABLE" } });
}

export function labelMutationRoot(context: GraphqlContext): Record<string, unknown> {
  const { core, viewer } = context;
  return {
    createLabel: (args: Args) => {
      const input = inputOf(args);
      const repositoryId = stringField(input, "repositoryId");
      const databaseId = databaseIdOf(repositoryId, "R");
      const repo = [...core.store.repos.values()].find((candidate) => candidate.id === databaseId);
      if (!repo || permissionOf(core.store, repo, viewer.login) === "none") throw unresolvable(repositoryId);
      if (!hasPermission(permissionOf(core.store, repo, viewer.login), "write"))
        throw forbidden(viewer.login, "CreateLabel");
      const name = stringField(input, "name").trim();
      if (name === "") throw unprocessable("Name can't be blank");
      const color = stringField(input, "color");
      if (!/^[0-9a-fA-F]{6}$/.test(color)) throw unprocessable("Color is invalid");
      if (findLabel(repo, name)) throw unprocessable("Name has already been taken");
      const description = input.description;
      const label: Label = {
        id: core.store.nextId(),
        name,
        color: color.toLowerCase(),
        description: typeof description === "string" ? description : null,
        isDefault: false,
      };
      repo.labels.push(label);
      return { clientMutationId: input.clientMutationId ?? null, label: labelNode(label) };
    },
  };
}

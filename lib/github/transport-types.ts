// The port every REST write and GraphQL read of the gateway is written against, and
// the shape of a create that survives a retried POST (create-once.ts). Types only:
// the transport and create-once both implement parts of it and import it.
import type { z } from "zod";
import type { LabelIds } from "./label-ids.ts";
import type { RepoRef } from "./types.ts";

export type Params = Record<string, unknown>;

/** `diff` and `raw` ask GitHub for text instead of JSON. */
export type Format = "diff" | "raw";

export type Transport = {
  repo: RepoRef;
  rest<S extends z.ZodType>(route: string, params: Params, schema: S, format?: Format): Promise<z.infer<S>>;
  /** As `rest`, but a 404 or 410 ("it is not there") answers null. */
  restOrNull<S extends z.ZodType>(
    route: string,
    params: Params,
    schema: S,
    format?: Format,
  ): Promise<z.infer<S> | null>;
  /** Every page of a list endpoint, 100 a page. */
  restPages<S extends z.ZodType>(route: string, params: Params, item: S): Promise<z.infer<S>[]>;
  graphql<S extends z.ZodType>(
    operation: string,
    query: string,
    variables: Params,
    schema: S,
  ): Promise<z.infer<S>>;
  /** A request that creates something: re-sent after a 5xx only when GitHub does not have it (create-once.ts). */
  create<T>(create: Create<T>): Promise<T>;
  /** The label ids this gateway has met, for writes batched into one GraphQL request. */
  labelIds: LabelIds;
};

/** `rest` and `graphql` with the octokit's retry plugin off for the request. */
export type SendOnce = Pick<Transport, "rest" | "graphql">;

export type Create<T> = {
  /** What is created, for the log: "comment on #12". */
  what: string;
  /** Sends the request once. Called again for a retry, so it may send only what is still missing. */
  send: (once: SendOnce) => Promise<T>;
  /** What `send` creates, if GitHub has it and it was made no earlier than `since`; null when it is not there. */
  landed: (since: Date) => Promise<T | null>;
};

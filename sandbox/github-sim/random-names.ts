/**
 * Names that vary from world to world, as they do between real installs: every
 * operator registers an app under a slug of their own (app names are global on
 * GitHub, so it is never `locus`), and Locus runs on owners and repositories
 * it cannot know in advance. A test that assumes a name fails in some world.
 * https://docs.github.com/en/apps/creating-github-apps/registering-a-github-app/registering-a-github-app
 */
import { randomBytes } from "node:crypto";

const WORDS = ["acme", "octo", "nimbus", "quartz", "ember", "tundra", "maple", "cobalt", "delta", "orbit"];

function word(): string {
  return WORDS[randomBytes(1)[0]! % WORDS.length]!;
}

function tail(): string {
  return randomBytes(3).toString("hex");
}

/** An app slug such as `nimbus-agent-3fa91c`. */
export function randomAppSlug(): string {
  return `${word()}-agent-${tail()}`;
}

/** An organisation login such as `quartz-labs-08be2d`. */
export function randomOwner(): string {
  return `${word()}-labs-${tail()}`;
}

/** A repository name such as `ember-service-c41f07`. */
export function randomRepoName(): string {
  return `${word()}-service-${tail()}`;
}

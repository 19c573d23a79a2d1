/**
 * The part of a failure comment that says GitHub refused Locus's push for a rule: the rules as
 * GitHub named them, what to change, and, when the wip branch was refused too, that the work is
 * not on GitHub. GitHub's wording lands only in text nodes.
 */
import type { PushRefusal } from "../git/push-refusal.ts";
import { code, list, paragraph, plain, strong, type Inline } from "./tree/nodes.ts";
import type { BlockContent } from "mdast";

export interface RefusedPush extends PushRefusal {
  /** The wip branch was refused as well: the work is only in the run's log and summary. */
  readonly wipRefused: boolean;
}

function whatToChange(refusal: PushRefusal): Inline[] {
  if (refusal.kind === "signatures") {
    return [
      "set ",
      code("commit.via: api"),
      " in ",
      code(".github/locus.yml"),
      " (",
      code("via: api"),
      " under ",
      code("commit:"),
      "). Locus then makes its commits through GitHub's API, which signs them, so they show as Verified.",
    ];
  }
  if (refusal.kind === "secrets") {
    return [
      "GitHub's secret scanning found what looks like a secret in the commits. Take it out of the code (keep it in a secret store); if it is a false positive, a person with access can allow it as GitHub's message in the run's log explains.",
    ];
  }
  return ["change the ruleset, or add Locus's app to its bypass list, in the repository's Settings → Rules."];
}

export function pushRefusalSection(refusal: RefusedPush): BlockContent[] {
  const where: Inline[] = refusal.ref ? [" to ", code(refusal.ref)] : [];
  return [
    paragraph(strong("GitHub refused the push"), ...where, " for these rules:"),
    list(refusal.rules.map((rule) => [plain(rule)])),
    paragraph(strong("What to change:"), " ", ...whatToChange(refusal)),
    ...(refusal.wipRefused
      ? [
          paragraph(
            "The same rules refused the work-in-progress branch, so this run's work is not saved on GitHub; the next attempt starts over.",
          ),
        ]
      : []),
  ];
}

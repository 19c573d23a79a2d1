import type { Route } from "./core.ts";

export interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

// `{path}` in /contents/{path} and `{ref}` in git refs may span slashes; other parameters are one segment.
const greedy = new Set(["path", "ref", "name_with_slashes"]);

function literalSegments(template: string): number {
  return template.split("/").filter((segment) => segment.length > 0 && !segment.startsWith("{")).length;
}

// Most literal segments first, so /issues/comments/{id} wins over /issues/{issue_number}.
export function compileRoutes(routes: Route[]): CompiledRoute[] {
  const ordered = [...routes].sort((a, b) => literalSegments(b.template) - literalSegments(a.template));
  return ordered.map((route) => {
    const names: string[] = [];
    const source = route.template
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\{(\w+)\}/g, (_match, name: string) => {
        names.push(name);
        return greedy.has(name) ? "(.+)" : "([^/]+)";
      });
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export function matchRoute(
  compiled: CompiledRoute[],
  method: string,
  path: string,
): RouteMatch | "method-not-allowed" | null {
  let pathMatched = false;
  for (const entry of compiled) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (entry.route.method !== method) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, index) => {
      params[name] = decodeURIComponent(match[index + 1] ?? "");
    });
    return { route: entry.route, params };
  }
  return pathMatched ? "method-not-allowed" : null;
}

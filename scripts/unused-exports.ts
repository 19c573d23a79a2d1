/**
 * Lists the exports of lib/, app/ and action/ that no other file imports
 * (`unused`) or that only tests import (`test-only`), so an export says "used
 * elsewhere" and nothing more. Every import in the project (tests, bench,
 * sandbox, scripts included) is resolved to its declaration with the
 * TypeScript checker, through re-exports such as `lib/github/index.ts`.
 * Values by default; `--types` adds types and interfaces, many of which
 * rightly name an exported function's input or result.
 * `node scripts/unused-exports.ts` exits 1 when a value export is unused.
 * A test-only export can be a unit API the tests exercise on purpose.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export type ExportUse = { file: string; line: number; name: string; users: string[]; isType: boolean };

function projectProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error("tsconfig.json could not be read");
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/** Which files import each declaration (an alias resolved to what it names). */
function importers(program: ts.Program, checker: ts.TypeChecker): Map<ts.Symbol, Set<string>> {
  const users = new Map<ts.Symbol, Set<string>>();
  const mark = (symbol: ts.Symbol | undefined, by: string): void => {
    if (!symbol) return;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    users.set(target, (users.get(target) ?? new Set()).add(by));
  };
  const markModule = (specifier: ts.Expression, by: string): void => {
    const module = checker.getSymbolAtLocation(specifier);
    if (module) for (const symbol of checker.getExportsOfModule(module)) mark(symbol, by);
  };
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || source.fileName.includes("/node_modules/")) continue;
    const by = relative(ROOT, source.fileName);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const { name, namedBindings } = node.importClause;
        if (name) mark(checker.getSymbolAtLocation(name), by);
        if (namedBindings && ts.isNamespaceImport(namedBindings)) markModule(node.moduleSpecifier, by);
        else if (namedBindings) {
          for (const element of namedBindings.elements) mark(checker.getSymbolAtLocation(element.name), by);
        }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        if (node.arguments[0]) markModule(node.arguments[0], by);
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        mark(checker.getSymbolAtLocation(node.qualifier), by);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return users;
}

/** Every export of lib/, app/ and action/ that no source file outside its own imports. */
export function exportsUnusedOutsideTests(): ExportUse[] {
  const program = projectProgram();
  const checker = program.getTypeChecker();
  const users = importers(program, checker);
  const found: ExportUse[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(ROOT, source.fileName);
    const module = /^(lib|app|action)\//.test(file) ? checker.getSymbolAtLocation(source) : undefined;
    if (!module) continue;
    for (const symbol of checker.getExportsOfModule(module)) {
      const declaration = symbol.declarations?.[0];
      if (symbol.flags & ts.SymbolFlags.Alias || declaration?.getSourceFile() !== source) continue;
      const others = [...(users.get(symbol) ?? [])].filter((user) => user !== file).sort();
      if (others.some((user) => !user.startsWith("test/"))) continue;
      const { line } = source.getLineAndCharacterOfPosition(declaration.getStart());
      const isType = !(symbol.flags & ts.SymbolFlags.Value);
      found.push({ file, line: line + 1, name: symbol.name, users: others, isType });
    }
  }
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const withTypes = process.argv.includes("--types");
  const found = exportsUnusedOutsideTests().filter((use) => withTypes || !use.isType);
  for (const use of found) {
    const kind = use.users.length === 0 ? "unused   " : "test-only";
    const by = use.users.length === 0 ? "" : `  (${use.users.join(", ")})`;
    console.log(`${kind} ${use.file}:${use.line} ${use.name}${by}`);
  }
  process.exitCode = found.some((use) => !use.isType && use.users.length === 0) ? 1 : 0;
}

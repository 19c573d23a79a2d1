import type { Route } from "./core.ts";
import { actionRoutes } from "./routes-actions.ts";
import { appRoutes } from "./routes-app.ts";
import { ciRoutes } from "./routes-ci.ts";
import { commentRoutes } from "./routes-comments.ts";
import { dependencyReviewRoutes } from "./routes-dependency-review.ts";
import { hookDeliveryRoutes } from "./routes-hook-deliveries.ts";
import { issueRoutes } from "./routes-issues.ts";
import { labelRoutes } from "./routes-labels.ts";
import { milestoneRoutes } from "./routes-milestones.ts";
import { pullRoutes } from "./routes-pulls.ts";
import { repoRoutes } from "./routes-repos.ts";
import { workflowPermissionRoutes } from "./routes-workflow-permissions.ts";
import { compileRoutes } from "./router.ts";
import type { CompiledRoute } from "./router.ts";

const allRoutes: Route[] = [
  ...appRoutes,
  ...hookDeliveryRoutes,
  ...repoRoutes,
  ...dependencyReviewRoutes,
  ...labelRoutes,
  ...issueRoutes,
  ...commentRoutes,
  ...milestoneRoutes,
  ...pullRoutes,
  ...actionRoutes,
  ...workflowPermissionRoutes,
  ...ciRoutes,
];

export const routes: CompiledRoute[] = compileRoutes(allRoutes);

/**
 * What every read of issue, pull request and comment text shares (docs/architecture.md
 * "Prompt": only what existed at trigger time is used): the GraphQL fields
 * that bring a body's edit history and the fragments for an issue and its
 * comments. The task read, the thread read and the iterate read all spread
 * these, so each body arrives with the history that recovers its trigger-time
 * text; `task-node-schemas.ts` parses what they bring.
 */
/** The fields of GitHub's `UserContentEditable` a body's history needs: `first` revisions, newest first. */
export function editHistoryFields(first: number): string {
  return `createdAt lastEditedAt includesCreatedEdit
    userContentEdits(first: ${first}) { pageInfo { hasNextPage } nodes { editedAt diff deletedAt editor { __typename login } } }`;
}

/** Issue bodies are edited more than comments, so more of their history is read. */
const ISSUE_EDITS = 100;
const COMMENT_EDITS = 20;
/**
 * A thread's comments read with it; a full page is followed up 100 at a time
 * (`taskIssueReader`). GitHub charges each comment's edit history once per
 * comment asked for, times the threads in the read (a sprint's hundred issues),
 * so the first page is sized for a typical thread, not the largest.
 * https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call
 */
const THREAD_COMMENT_FIRST_PAGE = 10;

export const COMMENT_FRAGMENT = /* GraphQL */ `
  fragment TaskComment on IssueComment {
    id
    databaseId
    body
    url
    updatedAt
    authorAssociation
    author {
      __typename
      login
    }
    ${editHistoryFields(COMMENT_EDITS)}
  }
`;

const THREAD_FIELDS = `
    id
    number
    title
    body
    url
    author {
      __typename
      login
    }
    milestone {
      number
    }
    labels(first: 100) {
      nodes {
        id
        name
      }
    }
    ${editHistoryFields(ISSUE_EDITS)}
    comments(first: ${THREAD_COMMENT_FIRST_PAGE}) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...TaskComment
      }
    }
`;

/** How many of an issue's newest label, milestone and rename events are read. */
const TIMELINE_EVENTS = 100;

/**
 * The timeline events that say who triggered the work and what the title was
 * then: the newest first-class events, in time order. Comments come with the
 * thread's own comment page, so they are not asked for twice.
 */
const TIMELINE_FIELDS = `
    timelineItems(last: ${TIMELINE_EVENTS}, itemTypes: [LABELED_EVENT, MILESTONED_EVENT, RENAMED_TITLE_EVENT]) {
      pageInfo {
        hasPreviousPage
      }
      nodes {
        __typename
        ... on LabeledEvent {
          createdAt
          actor {
            __typename
            login
          }
          label {
            name
          }
        }
        ... on MilestonedEvent {
          createdAt
          actor {
            __typename
            login
          }
          milestoneTitle
        }
        ... on RenamedTitleEvent {
          createdAt
          actor {
            __typename
            login
          }
          previousTitle
          currentTitle
        }
      }
    }
`;

export const ISSUE_FRAGMENT = /* GraphQL */ `
  fragment TaskIssue on Issue {
    state
    ${THREAD_FIELDS}
    ${TIMELINE_FIELDS}
  }
`;

/** A pull request as a thread: its conversation like an issue's, and where its branches are. */
export const PULL_REQUEST_FRAGMENT = /* GraphQL */ `
  fragment TaskPullRequest on PullRequest {
    pullState: state
    merged
    isDraft
    headRefName
    headRefOid
    baseRefName
    ${THREAD_FIELDS}
  }
`;

export const ISSUE_COMMENTS_QUERY = /* GraphQL */ `
  query IssueComments($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      issueOrPullRequest(number: $number) {
        ... on Issue {
          comments(first: 100, after: $after) {
            ...CommentPage
          }
        }
        ... on PullRequest {
          comments(first: 100, after: $after) {
            ...CommentPage
          }
        }
      }
    }
  }
  fragment CommentPage on IssueCommentConnection {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ...TaskComment
    }
  }
  ${COMMENT_FRAGMENT}
`;

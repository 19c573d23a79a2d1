/**
 * The most characters GitHub keeps in an issue's body. GitHub does not document the number in its
 * REST or GraphQL reference; it answers a longer body with 422 "body is too long (maximum is 65536
 * characters)", as reported in https://github.com/orgs/community/discussions/41331.
 */
export const MAX_ISSUE_BODY = 65_536;

export const BODY_TOO_LONG = `body is too long (maximum is ${MAX_ISSUE_BODY} characters)`;

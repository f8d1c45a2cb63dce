/**
 * The vendors a recording can stand in for: the variable naming each one's API (as the agents read
 * it), its default where the agent has one, and the variables holding its credentials (their values
 * are masked in every recording; their names let a replay fill placeholders).
 */
export interface VendorApi {
  url: string;
  default?: string;
  credentials: string[];
}

export const VENDOR_APIS: Readonly<Record<string, VendorApi>> = {
  jira: { url: "ATLASSIAN_API_URL", credentials: ["ATLASSIAN_EMAIL", "ATLASSIAN_TOKEN"] },
  confluence: { url: "CONFLUENCE_API_URL", credentials: ["CONFLUENCE_USERNAME", "CONFLUENCE_API_TOKEN"] },
  gitlab: { url: "GITLAB_HOST", default: "https://gitlab.com", credentials: ["GITLAB_TOKEN"] },
  github: {
    url: "GITHUB_API_URL",
    default: "https://api.github.com",
    credentials: ["GITHUB_PERSONAL_ACCESS_TOKEN"],
  },
  argocd: { url: "ARGOCD_API_URL", credentials: ["ARGOCD_TOKEN"] },
  backstage: { url: "BACKSTAGE_URL", credentials: ["BACKSTAGE_API_TOKEN"] },
  pagerduty: {
    url: "PAGERDUTY_API_URL",
    default: "https://api.pagerduty.com",
    credentials: ["PAGERDUTY_API_KEY"],
  },
  slack: { url: "SLACK_API_URL", default: "https://slack.com/api/", credentials: ["SLACK_BOT_TOKEN"] },
  komodor: { url: "KOMODOR_API_URL", default: "https://api.komodor.com", credentials: ["KOMODOR_TOKEN"] },
  splunk: { url: "SPLUNK_API_URL", credentials: ["SPLUNK_TOKEN"] },
  webex: { url: "WEBEX_API_URL", default: "https://webexapis.com/v1", credentials: ["WEBEX_TOKEN"] },
  victorops: {
    url: "VICTOROPS_API_URL",
    default: "https://api.victorops.com",
    credentials: ["X_VO_API_ID", "X_VO_API_KEY"],
  },
  petstore: {
    url: "PETSTORE_API_URL",
    default: "https://petstore3.swagger.io/api/v3",
    credentials: ["PETSTORE_API_KEY"],
  },
};

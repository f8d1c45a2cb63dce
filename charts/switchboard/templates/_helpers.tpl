{{/*
Names. The fullname prefixes every object: "<release>-switchboard", or the release name when it
already contains the chart name.
*/}}
{{- define "switchboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "switchboard.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "switchboard.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels every object of the release carries. */}}
{{- define "switchboard.labels" -}}
helm.sh/chart: {{ include "switchboard.chart" . }}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: switchboard
{{- end }}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "switchboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* A component's labels and selector labels; called with (dict "root" $ "component" $c). */}}
{{- define "switchboard.componentLabels" -}}
{{ include "switchboard.labels" .root }}
app.kubernetes.io/component: {{ .component.service }}
{{- end }}

{{- define "switchboard.componentSelectorLabels" -}}
{{ include "switchboard.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component.service }}
{{- end }}

{{/*
The supervisor's variable prefix for an agent (docs/CONTRACT.md, envPrefixFor in
@switchboard/contract): upper-cased, each run of other characters one "_": my-tool -> MY_TOOL.
*/}}
{{- define "switchboard.envPrefix" -}}
{{- regexReplaceAll "[^A-Z0-9]+" (upper .) "_" | trimAll "_" }}
{{- end }}

{{/*
Variables that must come from the Secret, never a ConfigMap: tokens, keys, secrets, passwords and
MongoDB URIs (which carry credentials).
*/}}
{{- define "switchboard.secretPattern" -}}
(^|_)(TOKEN|API_KEY|ACCESS_KEY|ACCESS_KEY_ID|SECRET|PASSWORD)(_|$)|(^|_)MONGODB_URI$
{{- end }}

{{/*
One component, as JSON: name (agent name, or the app's: web), role (supervisor, agent, host for a
host of agents made from configuration: dynamic-agents, or app for a tool with an image of its own:
the web chat), service (component name: supervisor, agent-<name>, dynamic-agents, web), where (its
values' path, for messages), fullName (object names), port, grpcPort (A2A over gRPC's port for the
supervisor, the agents and the host, 0 for none), envPrefix and spec (defaults merged with the component's values).
Called with (dict "root" $ "name" <name> "role" <role> "values" <component values>).
*/}}
{{- define "switchboard.component" -}}
{{- $root := .root }}
{{- $role := .role }}
{{- $service := printf "agent-%s" .name }}
{{- $where := printf "agents.%s" .name }}
{{- if eq $role "supervisor" }}
{{- $service = "supervisor" }}
{{- $where = "supervisor" }}
{{- else if or (eq $role "app") (eq $role "host") }}
{{- $service = .name }}
{{- $where = .where | default .name }}
{{- end }}
{{- $fullName := printf "%s-%s" (include "switchboard.fullname" $root) $service | trunc 63 | trimSuffix "-" }}
{{- $spec := mergeOverwrite (deepCopy $root.Values.defaults) (deepCopy .values) }}
{{- if not .values.port }}
{{- fail (printf "%s: set its contract port (port: <n>, %s)" $where (ternary "docs/CONTRACT.md" "as in its package.json" (eq $role "app"))) }}
{{- end }}
{{- /* An agent, the supervisor and the host of configured agents (all its agents on one port, by tenant) also serve A2A over gRPC: the runtime's A2A_GRPC_PORT, default port + 1000, off for none. */}}
{{- $grpcPort := 0 }}
{{- if or (eq $role "supervisor") (eq $role "agent") (eq $role "host") }}
{{- $grpcSetting := toString (get ($spec.env | default dict) "A2A_GRPC_PORT" | default "") }}
{{- if eq $grpcSetting "" }}
{{- $grpcPort = add (int .values.port) 1000 }}
{{- else if ne $grpcSetting "off" }}
{{- $grpcPort = int $grpcSetting }}
{{- end }}
{{- end }}
{{- toJson (dict "name" .name "role" $role "service" $service "where" $where "fullName" $fullName "port" (int .values.port) "grpcPort" $grpcPort "envPrefix" (include "switchboard.envPrefix" .name) "spec" $spec) }}
{{- end }}

{{/*
Every deployed component, supervisor first, then the enabled agents by name, then the host of
configured agents when dynamicAgents.enabled, then the web chat when web.enabled: {"items": [...]}.
*/}}
{{- define "switchboard.components" -}}
{{- $root := . }}
{{- $items := list (include "switchboard.supervisor" $root | fromJson) }}
{{- range $name, $agent := .Values.agents }}
{{- if not (regexMatch "^[a-z][a-z0-9-]*$" $name) }}
{{- fail (printf "agents.%s: agent names are lowercase letters, digits and -" $name) }}
{{- end }}
{{- if eq $name "supervisor" }}
{{- fail "agents.supervisor: the supervisor is configured under supervisor:, not agents:" }}
{{- end }}
{{- if $agent.enabled }}
{{- $items = append $items (include "switchboard.component" (dict "root" $root "name" $name "role" "agent" "values" $agent) | fromJson) }}
{{- end }}
{{- end }}
{{- if .Values.dynamicAgents.enabled }}
{{- $items = append $items (include "switchboard.dynamicAgents" $root | fromJson) }}
{{- end }}
{{- if .Values.web.enabled }}
{{- $items = append $items (include "switchboard.web" $root | fromJson) }}
{{- end }}
{{- if .Values.slackBot.enabled }}
{{- $items = append $items (include "switchboard.slackBot" $root | fromJson) }}
{{- end }}
{{- if .Values.webexBot.enabled }}
{{- $items = append $items (include "switchboard.webexBot" $root | fromJson) }}
{{- end }}
{{- if .Values.mcpServer.enabled }}
{{- if and (eq (toString .Values.config.AUTH_MODE) "jwt") (not (.Values.mcpServer.env | default dict).MCP_SERVER_PUBLIC_URL) }}
{{- fail "mcpServer.env.MCP_SERVER_PUBLIC_URL: with config.AUTH_MODE=jwt set the MCP endpoint's public URL (https://mcp.example.com/mcp): its metadata names it as the resource users' tokens are issued for" }}
{{- end }}
{{- $items = append $items (include "switchboard.mcpServer" $root | fromJson) }}
{{- end }}
{{- if .Values.ragServer.enabled }}
{{- $items = append $items (include "switchboard.ragServer" $root | fromJson) }}
{{- end }}
{{- if .Values.triggers.enabled }}
{{- $items = append $items (include "switchboard.triggers" $root | fromJson) }}
{{- end }}
{{- toJson (dict "items" $items) }}
{{- end }}

{{/* The supervisor's component (for selectors and URLs). */}}
{{- define "switchboard.supervisor" -}}
{{- include "switchboard.component" (dict "root" . "name" "supervisor" "role" "supervisor" "values" .Values.supervisor) }}
{{- end }}

{{/*
The host of agents made from configuration (agents/dynamic-agents), whether or not
dynamicAgents.enabled: named as its package (docker-compose.dev.yaml's service, CAIPE's), not agent-*.
*/}}
{{- define "switchboard.dynamicAgents" -}}
{{- include "switchboard.component" (dict "root" . "name" "dynamic-agents" "where" "dynamicAgents" "role" "host" "values" .Values.dynamicAgents) }}
{{- end }}

{{/* Where the host's app-config file is mounted (a folder, so the kubelet's updates reach it) and its path. */}}
{{- define "switchboard.appConfigDir" -}}
/etc/switchboard/app-config
{{- end }}
{{- define "switchboard.appConfigFile" -}}
{{- include "switchboard.appConfigDir" . }}/app-config.yaml
{{- end }}

{{/*
The host's app-config file: dynamicAgents.appConfig as given (the file's text, from --set-file) or
as YAML values. It lands in a ConfigMap, so it refuses a credential written into it: an MCP server's
env or headers entry, or an OpenAPI source's auth entry, whose name looks secret and whose value is
not a ${VAR} reference, and a URL with a password in it.
*/}}
{{- define "switchboard.appConfigText" -}}
{{- $config := .Values.dynamicAgents.appConfig }}
{{- $parsed := $config }}
{{- if kindIs "string" $config }}
{{- $parsed = fromYaml $config }}
{{- if hasKey $parsed "Error" }}
{{- fail (printf "dynamicAgents.appConfig is not a YAML file: %s" (get $parsed "Error")) }}
{{- end }}
{{- end }}
{{- $secretName := "(?i)authorization|token|secret|password|api[-_]?key|cookie|credential" }}
{{- range $list := list "mcp_servers" "openapi_sources" }}
{{- range $i, $entry := (get ($parsed | default dict) $list | default list) }}
{{- if kindIs "map" $entry }}
{{- $where := printf "dynamicAgents.appConfig.%s[%s]" $list (toString ($entry.id | default $i)) }}
{{- range $field := list "env" "headers" "auth" }}
{{- range $key, $value := (get $entry $field | default dict) }}
{{- if and (regexMatch $secretName $key) (not (contains "${" (toString $value))) }}
{{- fail (printf "%s.%s.%s is written in, and this file is a ConfigMap: refer to a variable (${%s}), put its value in secrets.values or your existingSecret and list %s in dynamicAgents.secretKeys" $where $field $key $key $key) }}
{{- end }}
{{- end }}
{{- end }}
{{- range $field := list "endpoint" "url" "document" "base_url" }}
{{- $url := toString (get $entry $field | default "") }}
{{- if and (regexMatch "://[^/@]*:[^/@]+@" $url) (not (contains "${" $url)) }}
{{- fail (printf "%s.%s carries a password, and this file is a ConfigMap: refer to a variable instead (https://user:${MY_PASSWORD}@…) listed in dynamicAgents.secretKeys" $where $field) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if kindIs "string" $config }}
{{- $config }}
{{- else }}
{{- toYaml ($config | default dict) }}
{{- end }}
{{- end }}

{{/* The web chat's component (tools/web), whether or not web.enabled. */}}
{{- define "switchboard.web" -}}
{{- include "switchboard.component" (dict "root" . "name" "web" "role" "app" "values" .Values.web) }}
{{- end }}

{{/* The Slack relay's component (tools/slack-bot), whether or not slackBot.enabled. */}}
{{- define "switchboard.slackBot" -}}
{{- include "switchboard.component" (dict "root" . "name" "slack-bot" "where" "slackBot" "role" "app" "values" .Values.slackBot) }}
{{- end }}

{{/* The Webex relay's component (tools/webex-bot), whether or not webexBot.enabled. */}}
{{- define "switchboard.webexBot" -}}
{{- include "switchboard.component" (dict "root" . "name" "webex-bot" "where" "webexBot" "role" "app" "values" .Values.webexBot) }}
{{- end }}

{{/* The MCP server's component (tools/mcp-server), whether or not mcpServer.enabled. */}}
{{- define "switchboard.mcpServer" -}}
{{- include "switchboard.component" (dict "root" . "name" "mcp-server" "where" "mcpServer" "role" "app" "values" .Values.mcpServer) }}
{{- end }}

{{/* The knowledge base's component (tools/rag-server), whether or not ragServer.enabled. */}}
{{- define "switchboard.ragServer" -}}
{{- include "switchboard.component" (dict "root" . "name" "rag-server" "where" "ragServer" "role" "app" "values" .Values.ragServer) }}
{{- end }}

{{/* The trigger receiver's component (tools/triggers), whether or not triggers.enabled. */}}
{{- define "switchboard.triggers" -}}
{{- include "switchboard.component" (dict "root" . "name" "triggers" "where" "triggers" "role" "app" "values" .Values.triggers) }}
{{- end }}

{{/* Where the trigger receiver reads its tasks (triggers.tasks, mounted from its ConfigMap). */}}
{{- define "switchboard.triggersDir" -}}
/etc/switchboard/triggers
{{- end }}

{{/* The trigger receiver's tasks file: triggers.tasks as given (the file's text, from --set-file) or as YAML values. */}}
{{- define "switchboard.triggersText" -}}
{{- $tasks := .Values.triggers.tasks }}
{{- if kindIs "string" $tasks }}
{{- $parsed := fromYaml $tasks }}
{{- if hasKey $parsed "Error" }}
{{- fail (printf "triggers.tasks is not a YAML file: %s" (get $parsed "Error")) }}
{{- end }}
{{- $tasks }}
{{- else }}
{{- toYaml ($tasks | default (dict "tasks" list)) }}
{{- end }}
{{- end }}

{{/* A component's Service URL inside the namespace: http://<fullName>:<port>. */}}
{{- define "switchboard.serviceUrl" -}}
{{- printf "http://%s:%d" .fullName (int .port) }}
{{- end }}

{{/*
The ingress' rules with each path's backend component resolved, as JSON: {"rules": [{host, paths:
[{path, pathType, component, fullName, port}]}]}. A path goes to its `component` (web or
supervisor), by default to the web chat when web.enabled (the browser-facing component), else to
the supervisor.
*/}}
{{- define "switchboard.ingressRules" -}}
{{- $root := . }}
{{- $supervisor := include "switchboard.supervisor" $root | fromJson }}
{{- $targets := dict "supervisor" $supervisor }}
{{- if .Values.web.enabled }}
{{- $_ := set $targets "web" (include "switchboard.web" $root | fromJson) }}
{{- end }}
{{- $default := ternary "web" "supervisor" (and .Values.web.enabled true) }}
{{- $rules := list }}
{{- range $host := .Values.ingress.hosts }}
{{- $paths := list }}
{{- range $path := $host.paths }}
{{- $name := $path.component | default $default }}
{{- $target := get $targets $name }}
{{- if not $target }}
{{- fail (printf "ingress: path %s of host %s goes to component %s, which is not deployed (web.enabled=false?)" $path.path ($host.host | default "*") $name) }}
{{- end }}
{{- $paths = append $paths (dict "path" $path.path "pathType" ($path.pathType | default "Prefix") "component" $name "fullName" $target.fullName "port" $target.port) }}
{{- end }}
{{- $rules = append $rules (dict "host" ($host.host | default "") "paths" $paths) }}
{{- end }}
{{- toJson (dict "rules" $rules "default" (get $targets $default)) }}
{{- end }}

{{/*
The ingress URL of a component: http(s)://<first ingress host with a path to it>, https when the
host is in ingress.tls; empty without the ingress or such a host. (dict "root" $ "component" <name>)
*/}}
{{- define "switchboard.ingressUrl" -}}
{{- $root := .root }}
{{- $component := .component }}
{{- if $root.Values.ingress.enabled }}
{{- $found := "" }}
{{- range (include "switchboard.ingressRules" $root | fromJson).rules }}
{{- $host := .host }}
{{- if and $host (not $found) }}
{{- range .paths }}{{ if eq .component $component }}{{ $found = $host }}{{ end }}{{ end }}
{{- end }}
{{- end }}
{{- if $found }}
{{- $tls := false }}
{{- range $root.Values.ingress.tls }}{{ if has $found (.hosts | default list) }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $found }}
{{- end }}
{{- end }}
{{- end }}

{{/*
AGENT_PUBLIC_URL: publicUrl, else (supervisor) the first ingress host that routes to it, else the
Service URL.
*/}}
{{- define "switchboard.publicUrl" -}}
{{- $c := .component }}
{{- $ingressUrl := "" }}
{{- if eq $c.role "supervisor" }}
{{- $ingressUrl = include "switchboard.ingressUrl" (dict "root" .root "component" "supervisor") }}
{{- end }}
{{- if $c.spec.publicUrl }}
{{- $c.spec.publicUrl }}
{{- else if $ingressUrl }}
{{- $ingressUrl }}
{{- else }}
{{- include "switchboard.serviceUrl" $c }}
{{- end }}
{{- end }}

{{/* Non-empty entries of a map of variables, as strings; refuses secret-looking names. (dict "what" "values") */}}
{{- define "switchboard.plainEnv" -}}
{{- $out := dict }}
{{- $what := .what }}
{{- range $key, $value := .values }}
{{- if not (regexMatch "^[A-Za-z_][A-Za-z0-9_]*$" $key) }}
{{- fail (printf "%s.%s is not a variable name" $what $key) }}
{{- end }}
{{- if regexMatch (include "switchboard.secretPattern" nil) $key }}
{{- fail (printf "%s.%s looks secret: put it in secrets.values (or your existingSecret) and list it in secrets.sharedKeys or the component's secretKeys" $what $key) }}
{{- end }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- $_ := set $out $key (toString $value) }}
{{- end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* The shared ConfigMap's data, as JSON. */}}
{{- define "switchboard.sharedEnv" -}}
{{- include "switchboard.plainEnv" (dict "what" "config" "values" .Values.config) }}
{{- end }}

{{/*
A component's own ConfigMap data, as JSON: PORT and HOST; for the supervisor, the agents and the
host AGENT_PUBLIC_URL, and for the supervisor the wiring of every enabled agent (ENABLE_<AGENT>,
<AGENT>_AGENT_URL); for the supervisor and the web chat the host's Service as DYNAMIC_AGENTS_URL when
it is enabled; for the host APP_CONFIG_FILE; for the web chat SWITCHBOARD_URL, the release's
supervisor Service; then its env.
Called with (dict "root" $ "component" $c).
*/}}
{{- define "switchboard.componentEnv" -}}
{{- $c := .component }}
{{- $root := .root }}
{{- $env := dict "PORT" (toString $c.port) "HOST" "0.0.0.0" }}
{{- $supervisorUrl := include "switchboard.serviceUrl" (include "switchboard.supervisor" $root | fromJson) }}
{{- if has $c.name (list "slack-bot" "webex-bot" "mcp-server" "triggers") }}
{{- /* The Slack and Webex relays, the MCP server and the triggers talk to the supervisor under CAIPE's name for it. */}}
{{- $_ := set $env "CAIPE_URL" $supervisorUrl }}
{{- if eq $c.name "triggers" }}
{{- $_ := set $env "TRIGGERS_CONFIG_FILE" (printf "%s/triggers.yaml" (include "switchboard.triggersDir" $root)) }}
{{- else if and (has $c.name (list "slack-bot" "webex-bot")) $root.Values.triggers.enabled }}
{{- /* Approve and Decline on a triggered run's question (Slack) or card (Webex) go to the receiver. */}}
{{- $_ := set $env "TRIGGERS_URL" (include "switchboard.serviceUrl" (include "switchboard.triggers" $root | fromJson)) }}
{{- end }}
{{- else if eq $c.name "rag-server" }}
{{- /* The knowledge base calls no one: the supervisor calls it. */}}
{{- else if eq $c.role "app" }}
{{- $_ := set $env "SWITCHBOARD_URL" $supervisorUrl }}
{{- if $root.Values.slackBot.enabled }}
{{- /* The web chat offers the Slack relay's account-link pages. */}}
{{- $_ := set $env "SLACK_BOT_URL" (include "switchboard.serviceUrl" (include "switchboard.slackBot" $root | fromJson)) }}
{{- end }}
{{- if $root.Values.triggers.enabled }}
{{- /* The web chat's Triggered runs page reads the receiver. */}}
{{- $_ := set $env "TRIGGERS_URL" (include "switchboard.serviceUrl" (include "switchboard.triggers" $root | fromJson)) }}
{{- end }}
{{- if $root.Values.webexBot.enabled }}
{{- /* The web chat offers the Webex bot's account-link pages. */}}
{{- $_ := set $env "WEBEX_BOT_URL" (include "switchboard.serviceUrl" (include "switchboard.webexBot" $root | fromJson)) }}
{{- end }}
{{- else }}
{{- $_ := set $env "AGENT_PUBLIC_URL" (include "switchboard.publicUrl" .) }}
{{- end }}
{{- if and (or (eq $c.role "supervisor") (eq $c.name "web")) $root.Values.ragServer.enabled }}
{{- /* CAIPE's switch and URL: the supervisor takes the knowledge base's tools, the web chat offers its Sources page. */}}
{{- $_ := set $env "ENABLE_RAG" "true" }}
{{- $_ := set $env "RAG_SERVER_URL" (include "switchboard.serviceUrl" (include "switchboard.ragServer" $root | fromJson)) }}
{{- end }}
{{- if eq $c.role "supervisor" }}
{{- range (include "switchboard.components" $root | fromJson).items }}
{{- if eq .role "agent" }}
{{- $_ := set $env (printf "ENABLE_%s" .envPrefix) "true" }}
{{- $_ := set $env (printf "%s_AGENT_URL" .envPrefix) (include "switchboard.serviceUrl" .) }}
{{- end }}
{{- end }}
{{- end }}
{{- if or (eq $c.role "supervisor") (eq $c.name "web") }}
{{- /* A host is not one agent: the supervisor lists its agents at <url>/agents (CAIPE's DYNAMIC_AGENTS_URL), the web chat edits them there. */}}
{{- range (include "switchboard.components" $root | fromJson).items }}
{{- if eq .role "host" }}
{{- $_ := set $env (printf "%s_URL" .envPrefix) (include "switchboard.serviceUrl" .) }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq $c.role "host" }}
{{- $_ := set $env "APP_CONFIG_FILE" (include "switchboard.appConfigFile" $root) }}
{{- end }}
{{- $what := printf "%s.env" $c.where }}
{{- range $key, $value := (include "switchboard.plainEnv" (dict "what" $what "values" ($c.spec.env | default dict)) | fromJson) }}
{{- if hasKey $env $key }}
{{- fail (printf "%s.%s is set by the chart (%s)" $what $key (get $env $key)) }}
{{- end }}
{{- $_ := set $env $key $value }}
{{- end }}
{{- if eq $c.name "web" }}
{{- /* The web chat's AUTH_MODE is its own, else the shared config's (envFrom); jwt needs OpenID Connect. */}}
{{- $authMode := get $env "AUTH_MODE" | default (toString ($root.Values.config.AUTH_MODE | default "none")) }}
{{- if and (eq $authMode "jwt") (not (and (get $env "OIDC_ISSUER") (get $env "OIDC_CLIENT_ID"))) }}
{{- fail (printf "%s: AUTH_MODE=jwt: the web chat signs users in with OpenID Connect; set %s.OIDC_ISSUER (your identity provider) and %s.OIDC_CLIENT_ID (a public client allowed to redirect to <web chat URL>/auth/callback), or %s.AUTH_MODE=none" $c.where $what $what $what) }}
{{- end }}
{{- end }}
{{- toJson $env }}
{{- end }}

{{/* The Secret the components read: existingSecret, else the chart's own. */}}
{{- define "switchboard.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "switchboard.fullname" .) }}
{{- end }}

{{/* The chart's Secret data (non-empty secrets.values), as JSON; checks it against existingSecret. */}}
{{- define "switchboard.secretValues" -}}
{{- $out := dict }}
{{- range $key, $value := .Values.secrets.values }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- $_ := set $out $key (toString $value) }}
{{- end }}
{{- end }}
{{- if and .Values.secrets.existingSecret (gt (len $out) 0) }}
{{- fail (printf "secrets.existingSecret is set: put %s in that Secret, not in secrets.values" (keys $out | sortAlpha | join ", ")) }}
{{- end }}
{{- $read := concat .Values.secrets.sharedKeys (.Values.supervisor.secretKeys | default list) }}
{{- range $name, $agent := .Values.agents }}
{{- $read = concat $read ($agent.secretKeys | default list) }}
{{- end }}
{{- $read = concat $read (.Values.dynamicAgents.secretKeys | default list) }}
{{- $read = concat $read (.Values.web.secretKeys | default list) }}
{{- $read = concat $read (.Values.slackBot.secretKeys | default list) }}
{{- $read = concat $read (.Values.webexBot.secretKeys | default list) }}
{{- $read = concat $read (.Values.mcpServer.secretKeys | default list) }}
{{- $read = concat $read (.Values.ragServer.secretKeys | default list) }}
{{- $read = concat $read (.Values.triggers.secretKeys | default list) }}
{{- range $key, $_ := $out }}
{{- if not (has $key $read) }}
{{- fail (printf "secrets.values.%s is read by no component: list it in secrets.sharedKeys or a component's secretKeys" $key) }}
{{- end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/*
The Secret keys a component reads: its secretKeys, after secrets.sharedKeys for the supervisor and
the agents (the web chat holds no credential: MongoDB and the LLM keys are the agents').
*/}}
{{- define "switchboard.componentSecretKeys" -}}
{{- $shared := ternary (list) .root.Values.secrets.sharedKeys (eq .component.role "app") }}
{{- toJson (dict "keys" (concat $shared (.component.spec.secretKeys | default list) | uniq)) }}
{{- end }}

{{/* A component's image reference. Called with (dict "root" $ "component" $c). */}}
{{- define "switchboard.image" -}}
{{- $image := .root.Values.image }}
{{- $own := .component.spec.image | default dict }}
{{- $repository := printf "%s/%s" $image.repositoryPrefix .component.service }}
{{- if $image.registry }}
{{- $repository = printf "%s/%s" (trimSuffix "/" $image.registry) $repository }}
{{- end }}
{{- printf "%s:%s" ($own.repository | default $repository) (toString ($own.tag | default $image.tag | default .root.Chart.AppVersion)) }}
{{- end }}

{{- define "switchboard.serviceAccountName" -}}
{{- if .component.spec.serviceAccountName }}
{{- .component.spec.serviceAccountName }}
{{- else if .root.Values.serviceAccount.create }}
{{- .root.Values.serviceAccount.name | default (include "switchboard.fullname" .root) }}
{{- else }}
{{- .root.Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

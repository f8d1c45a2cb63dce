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
One component, as JSON: name (agent name), service (component name: supervisor, agent-<name>),
fullName (object names), port, envPrefix and spec (defaults merged with the component's values).
Called with (dict "root" $ "name" <agent name> "values" <component values>).
*/}}
{{- define "switchboard.component" -}}
{{- $root := .root }}
{{- $service := ternary "supervisor" (printf "agent-%s" .name) (eq .name "supervisor") }}
{{- $fullName := printf "%s-%s" (include "switchboard.fullname" $root) $service | trunc 63 | trimSuffix "-" }}
{{- $spec := mergeOverwrite (deepCopy $root.Values.defaults) (deepCopy .values) }}
{{- if not .values.port }}
{{- fail (printf "%s: set its contract port (port: <n>, as in its package.json)" (ternary "supervisor" (printf "agents.%s" .name) (eq .name "supervisor"))) }}
{{- end }}
{{- toJson (dict "name" .name "service" $service "fullName" $fullName "port" (int .values.port) "envPrefix" (include "switchboard.envPrefix" .name) "spec" $spec) }}
{{- end }}

{{/* Every deployed component, supervisor first, then the enabled agents by name: {"items": [...]}. */}}
{{- define "switchboard.components" -}}
{{- $root := . }}
{{- $items := list (include "switchboard.component" (dict "root" $root "name" "supervisor" "values" .Values.supervisor) | fromJson) }}
{{- range $name, $agent := .Values.agents }}
{{- if not (regexMatch "^[a-z][a-z0-9-]*$" $name) }}
{{- fail (printf "agents.%s: agent names are lowercase letters, digits and -" $name) }}
{{- end }}
{{- if eq $name "supervisor" }}
{{- fail "agents.supervisor: the supervisor is configured under supervisor:, not agents:" }}
{{- end }}
{{- if $agent.enabled }}
{{- $items = append $items (include "switchboard.component" (dict "root" $root "name" $name "values" $agent) | fromJson) }}
{{- end }}
{{- end }}
{{- toJson (dict "items" $items) }}
{{- end }}

{{/* The supervisor's component (for selectors and URLs). */}}
{{- define "switchboard.supervisor" -}}
{{- include "switchboard.component" (dict "root" . "name" "supervisor" "values" .Values.supervisor) }}
{{- end }}

{{/* A component's Service URL inside the namespace: http://<fullName>:<port>. */}}
{{- define "switchboard.serviceUrl" -}}
{{- printf "http://%s:%d" .fullName (int .port) }}
{{- end }}

{{/* AGENT_PUBLIC_URL: publicUrl, else (supervisor) the ingress' first host, else the Service URL. */}}
{{- define "switchboard.publicUrl" -}}
{{- $c := .component }}
{{- $ingress := .root.Values.ingress }}
{{- if $c.spec.publicUrl }}
{{- $c.spec.publicUrl }}
{{- else if and (eq $c.name "supervisor") $ingress.enabled $ingress.hosts (first $ingress.hosts).host }}
{{- $host := (first $ingress.hosts).host }}
{{- $tls := false }}
{{- range $ingress.tls }}{{ if has $host (.hosts | default list) }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
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
A component's own ConfigMap data, as JSON: PORT, HOST, AGENT_PUBLIC_URL; for the supervisor, the
wiring of every enabled agent (ENABLE_<AGENT>, <AGENT>_AGENT_URL); then its env.
Called with (dict "root" $ "component" $c).
*/}}
{{- define "switchboard.componentEnv" -}}
{{- $c := .component }}
{{- $root := .root }}
{{- $env := dict "PORT" (toString $c.port) "HOST" "0.0.0.0" "AGENT_PUBLIC_URL" (include "switchboard.publicUrl" .) }}
{{- if eq $c.name "supervisor" }}
{{- range (include "switchboard.components" $root | fromJson).items }}
{{- if ne .name "supervisor" }}
{{- $_ := set $env (printf "ENABLE_%s" .envPrefix) "true" }}
{{- $_ := set $env (printf "%s_AGENT_URL" .envPrefix) (include "switchboard.serviceUrl" .) }}
{{- end }}
{{- end }}
{{- end }}
{{- $what := ternary "supervisor.env" (printf "agents.%s.env" $c.name) (eq $c.name "supervisor") }}
{{- range $key, $value := (include "switchboard.plainEnv" (dict "what" $what "values" ($c.spec.env | default dict)) | fromJson) }}
{{- if hasKey $env $key }}
{{- fail (printf "%s.%s is set by the chart (%s)" $what $key (get $env $key)) }}
{{- end }}
{{- $_ := set $env $key $value }}
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
{{- range $key, $_ := $out }}
{{- if not (has $key $read) }}
{{- fail (printf "secrets.values.%s is read by no component: list it in secrets.sharedKeys or a component's secretKeys" $key) }}
{{- end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* The Secret keys a component reads: secrets.sharedKeys and its secretKeys. */}}
{{- define "switchboard.componentSecretKeys" -}}
{{- toJson (dict "keys" (concat .root.Values.secrets.sharedKeys (.component.spec.secretKeys | default list) | uniq)) }}
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

{{/*
Expand the name of the chart.
*/}}
{{- define "baohuang-rules.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Create a default fully qualified app name.
We truncate at 63 chars because some Kubernetes name fields are limited to this (by the DNS naming spec).
If release name contains chart name it will be used as a full name.
*/}}
{{- define "baohuang-rules.fullname" -}}
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

{{/*
Create chart name and version as used by the chart label.
*/}}
{{- define "baohuang-rules.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels
*/}}
{{- define "baohuang-rules.labels" -}}
helm.sh/chart: {{ include "baohuang-rules.chart" . }}
{{ include "baohuang-rules.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: baohuang-rules
{{- end }}

{{/*
Selector labels
*/}}
{{- define "baohuang-rules.selectorLabels" -}}
app.kubernetes.io/name: {{ include "baohuang-rules.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Create the name of the service account to use
*/}}
{{- define "baohuang-rules.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "baohuang-rules.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The container image: repository:tag, or repository@digest when a digest is given.
*/}}
{{- define "baohuang-rules.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
The Secret the chart renders (when existingSecret is not given).
*/}}
{{- define "baohuang-rules.secretName" -}}
{{- include "baohuang-rules.fullname" . }}
{{- end }}

{{/*
Where REDIS_URL comes from: redis.existingSecret, else existingSecret, else the chart's Secret.
Output: "<secret name>/<key>" is awkward in YAML, so two helpers.
*/}}
{{- define "baohuang-rules.redisSecretName" -}}
{{- if .Values.redis.existingSecret }}
{{- .Values.redis.existingSecret }}
{{- else if .Values.existingSecret }}
{{- .Values.existingSecret }}
{{- else }}
{{- include "baohuang-rules.secretName" . }}
{{- end }}
{{- end }}

{{- define "baohuang-rules.redisSecretKey" -}}
{{- if .Values.redis.existingSecret }}
{{- .Values.redis.existingSecretKey }}
{{- else if .Values.existingSecret }}
{{- .Values.secretKeys.redisUrl }}
{{- else -}}
redis-url
{{- end }}
{{- end }}

{{/*
REDIS_PASSWORD and REDIS_SENTINEL_PASSWORD: optional keys of the Secret holding REDIS_URL.
*/}}
{{- define "baohuang-rules.redisPasswordKey" -}}
{{- if or .Values.redis.existingSecret .Values.existingSecret }}
{{- .Values.secretKeys.redisPassword }}
{{- else -}}
redis-password
{{- end }}
{{- end }}

{{- define "baohuang-rules.redisSentinelPasswordKey" -}}
{{- if or .Values.redis.existingSecret .Values.existingSecret }}
{{- .Values.secretKeys.redisSentinelPassword }}
{{- else -}}
redis-sentinel-password
{{- end }}
{{- end }}

{{/*
Where BAOHUANG_API_KEYS and BAOHUANG_TOKEN_SECRET come from.
*/}}
{{- define "baohuang-rules.authSecretName" -}}
{{- default (include "baohuang-rules.secretName" .) .Values.existingSecret }}
{{- end }}

{{- define "baohuang-rules.apiKeysKey" -}}
{{- if .Values.existingSecret }}
{{- .Values.secretKeys.apiKeys }}
{{- else -}}
api-keys
{{- end }}
{{- end }}

{{- define "baohuang-rules.tokenSecretKey" -}}
{{- if .Values.existingSecret }}
{{- .Values.secretKeys.tokenSecret }}
{{- else -}}
token-secret
{{- end }}
{{- end }}

{{/*
The seat-token HMAC secret for the chart's Secret: the value given, else the one
already in the release's Secret (kept across upgrades), else a new random one.
Every replica must share it, so it is never generated per pod.
*/}}
{{- define "baohuang-rules.tokenSecret" -}}
{{- if .Values.auth.tokenSecret }}
{{- .Values.auth.tokenSecret }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "baohuang-rules.secretName" .) }}
{{- if and $existing $existing.data (hasKey $existing.data "token-secret") }}
{{- index $existing.data "token-secret" | b64dec }}
{{- else }}
{{- randAlphaNum 64 }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Pods expected at least: replicaCount, or minReplicas under the HPA.
*/}}
{{- define "baohuang-rules.minPods" -}}
{{- if .Values.autoscaling.enabled }}
{{- .Values.autoscaling.minReplicas }}
{{- else }}
{{- .Values.replicaCount }}
{{- end }}
{{- end }}

{{/*
Refuse settings that would break a multi-pod deployment.
*/}}
{{- define "baohuang-rules.validate" -}}
{{- $external := or .Values.redis.url .Values.redis.existingSecret .Values.existingSecret }}
{{- if and (not $external) (or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1)) }}
{{- fail "redis.url is empty: the embedded in-memory store is per process, so live tables would not be shared between pods. Set redis.url (redis:// or rediss://), redis.existingSecret or existingSecret, or run replicaCount=1 with autoscaling.enabled=false." }}
{{- end }}
{{- if and (not $external) (gt (int .Values.config.workers) 1) }}
{{- fail "redis.url is empty: the embedded in-memory store is per process, so config.workers > 1 would not share tables between its workers. Set redis.url, redis.existingSecret or existingSecret, or run config.workers=1." }}
{{- end }}
{{- if and (eq .Values.redis.mode "sentinel") (not .Values.redis.sentinelService) }}
{{- fail "redis.mode=sentinel needs redis.sentinelService: the primary's name as the Sentinels know it." }}
{{- end }}
{{- if and (ne .Values.redis.mode "standalone") (not $external) }}
{{- fail (printf "redis.mode=%s needs redis.url, redis.existingSecret or existingSecret." .Values.redis.mode) }}
{{- end }}
{{- if and (or .Values.redis.password .Values.redis.sentinelPassword) (or .Values.redis.existingSecret .Values.existingSecret) }}
{{- fail "redis.password and redis.sentinelPassword go to the chart's Secret: with redis.existingSecret or existingSecret, put them in that Secret (keys secretKeys.redisPassword, secretKeys.redisSentinelPassword)." }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not exceed autoscaling.maxReplicas." }}
{{- end }}
{{- if and .Values.autoscaling.enabled (not .Values.autoscaling.targetCPUUtilizationPercentage) (not .Values.autoscaling.targetMemoryUtilizationPercentage) }}
{{- fail "autoscaling.enabled needs targetCPUUtilizationPercentage or targetMemoryUtilizationPercentage." }}
{{- end }}
{{- end }}

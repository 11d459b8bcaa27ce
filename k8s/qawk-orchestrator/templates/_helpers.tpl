{{- define "qawk.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "qawk.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "qawk.selectorLabels" -}}
app.kubernetes.io/name: {{ include "qawk.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "qawk.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "qawk.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: qawk
{{- end -}}

{{- define "qawk.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "qawk.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The channels file the service applies at start-up (QAWK_FLEETS_FILE). */}}
{{- define "qawk.channelsFile" -}}
{{ dict "channels" (.Values.channels | default list) | toYaml }}
{{- end -}}

{{/* Fails early, naming the value, when a required value is missing. */}}
{{- define "qawk.validate" -}}
{{- $_ := required "hawkbit.url is required: the base URL of your hawkBit (without /rest/v1)" .Values.hawkbit.url -}}
{{- $_ := required "hawkbit.existingSecret is required: a Secret with the hawkBit user's password" .Values.hawkbit.existingSecret -}}
{{- $_ := required "database.url is required: the embedded Postgres is not for Kubernetes; give jdbc:postgresql://host:5432/db" .Values.database.url -}}
{{- if not (hasPrefix "jdbc:postgresql://" .Values.database.url) -}}
{{- fail (printf "database.url must start with jdbc:postgresql:// (got %s)" .Values.database.url) -}}
{{- end -}}
{{- $_ := required "database.existingSecret is required: a Secret with the database password" .Values.database.existingSecret -}}
{{- if not .Values.oidc.issuer -}}
{{- if not .Values.users.basicAuth -}}
{{- fail "oidc.issuer is required when users.basicAuth is false: nobody could sign in" -}}
{{- end -}}
{{- $_ := required "users.existingSecret is required: a Secret with the admin and viewer passwords (or set oidc.issuer to sign in through your identity provider)" .Values.users.existingSecret -}}
{{- end -}}
{{- if and .Values.oidc.sessionSecretKey (not .Values.oidc.existingSecret) -}}
{{- fail "oidc.existingSecret is required when oidc.sessionSecretKey is set: the Secret that holds it" -}}
{{- end -}}
{{- if and .Values.metrics.requireAuth .Values.metrics.serviceMonitor.enabled (not .Values.metrics.serviceMonitor.basicAuth.secretName) -}}
{{- fail "metrics.serviceMonitor.basicAuth.secretName is required when metrics.requireAuth is true and the ServiceMonitor is enabled" -}}
{{- end -}}
{{- end -}}

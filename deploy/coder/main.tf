# A Coder template: each workspace is a Kubernetes pod of our image, with the Coder agent inside it and the
# Theia IDE (with the CLI Companion and the CLIs) as the workspace's app. See README.md.

terraform {
  required_providers {
    coder = {
      source  = "coder/coder"
      version = "~> 2.0"
    }
    kubernetes = {
      source = "hashicorp/kubernetes"
    }
  }
}

variable "image" {
  type        = string
  description = "The image built by `npm run image`, pushed to a registry the cluster pulls from."
  default     = "registry.example.com/platform/theia-cli-companion:0.1.0"
}

variable "namespace" {
  type        = string
  description = "The Kubernetes namespace the workspaces run in (it must exist)."
  default     = "coder-workspaces"
}

variable "use_kubeconfig" {
  type        = bool
  description = "Whether the Coder host reaches the cluster through its ~/.kube/config (true) or its in-cluster service account (false)."
  default     = false
}

provider "kubernetes" {
  config_path = var.use_kubeconfig ? "~/.kube/config" : null
}

data "coder_workspace" "me" {}

data "coder_workspace_owner" "me" {}

locals {
  name = "coder-${lower(data.coder_workspace_owner.me.name)}-${lower(data.coder_workspace.me.name)}"
  # The image's `theia` user and the port its IDE serves on; deploy/image.json holds the same values.
  uid  = 101
  port = 3000
  # A user's API keys (GEMINI_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY), one Secret per user; see README.md.
  api_keys_secret = "ai-cli-api-keys-${lower(data.coder_workspace_owner.me.name)}"
}

resource "coder_agent" "main" {
  os   = "linux"
  arch = "amd64"
  # The entrypoint started with no command serves the IDE on the image's port, in /home/project.
  startup_script = <<-EOT
    /usr/local/bin/theia-cli-companion-entrypoint >/tmp/theia-cli-companion.log 2>&1 &
  EOT
  display_apps {
    vscode          = false
    vscode_insiders = false
    web_terminal    = true
    ssh_helper      = true
  }
}

resource "coder_app" "theia" {
  agent_id     = coder_agent.main.id
  slug         = "theia"
  display_name = "Theia IDE"
  icon         = "/icon/theia.svg"
  url          = "http://localhost:${local.port}"
  # Theia is served from the root of its origin, not under a path prefix: it needs a subdomain of its own
  # (a wildcard access URL on the Coder server).
  subdomain = true
  share     = "owner"
  open_in   = "tab"

  healthcheck {
    url       = "http://localhost:${local.port}/"
    interval  = 5
    threshold = 60
  }
}

resource "kubernetes_persistent_volume_claim_v1" "project" {
  metadata {
    name      = "${local.name}-project"
    namespace = var.namespace
    labels = {
      "app.kubernetes.io/name"    = "theia-cli-companion-project"
      "app.kubernetes.io/part-of" = "coder"
      "com.coder.workspace.id"    = data.coder_workspace.me.id
    }
  }
  wait_until_bound = false
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
}

resource "kubernetes_pod_v1" "main" {
  count = data.coder_workspace.me.start_count
  metadata {
    name      = local.name
    namespace = var.namespace
    labels = {
      "app.kubernetes.io/name"    = "theia-cli-companion-workspace"
      "app.kubernetes.io/part-of" = "coder"
      "com.coder.workspace.id"    = data.coder_workspace.me.id
    }
  }
  spec {
    # The image works for any UID in group 0 (OpenShift's arbitrary UIDs); its own user is 101. fs_group 0 makes
    # the project volume group-0 writable.
    security_context {
      run_as_user     = local.uid
      run_as_group    = 0
      fs_group        = 0
      run_as_non_root = true
    }
    container {
      name              = "dev"
      image             = var.image
      image_pull_policy = "IfNotPresent"
      # The image's entrypoint (under tini, which forwards signals and reaps) makes the UID a user with a home,
      # then runs what it is given: the agent's init script, which downloads the agent from the Coder server (with
      # the image's curl) and starts it.
      args = ["sh", "-c", coder_agent.main.init_script]
      security_context {
        allow_privilege_escalation = false
      }
      env {
        name  = "CODER_AGENT_TOKEN"
        value = coder_agent.main.token
      }
      # Every key of the user's Secret becomes an environment variable; a user without one still gets a workspace.
      env_from {
        secret_ref {
          name     = local.api_keys_secret
          optional = true
        }
      }
      port {
        container_port = local.port
        name           = "theia"
      }
      resources {
        requests = {
          cpu    = "500m"
          memory = "2Gi"
        }
        limits = {
          cpu    = "2"
          memory = "4Gi"
        }
      }
      volume_mount {
        name       = "project"
        mount_path = "/home/project"
      }
    }
    volume {
      name = "project"
      persistent_volume_claim {
        claim_name = kubernetes_persistent_volume_claim_v1.project.metadata[0].name
      }
    }
  }
}

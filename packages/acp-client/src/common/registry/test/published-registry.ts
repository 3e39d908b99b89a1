/**
 * The index that agentclientprotocol/registry's CI publishes to
 * https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json, built from its commit 3de1678
 * (2026-02-07) with its own `.github/workflows/build_registry.py` (SKIP_URL_VALIDATION=1 only skips
 * checking that the archives are reachable). Kept as text, as it arrives over the network.
 */
export const PUBLISHED_REGISTRY_JSON = String.raw`{
  "version": "1.0.0",
  "agents": [
    {
      "id": "auggie",
      "name": "Auggie CLI",
      "version": "0.15.0",
      "description": "Augment Code's powerful software agent, backed by industry-leading context engine",
      "repository": "https://github.com/augmentcode/auggie-zed-extension",
      "authors": [
        "Augment Code <support@augmentcode.com>"
      ],
      "license": "proprietary",
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/auggie.svg",
      "distribution": {
        "npx": {
          "package": "@augmentcode/auggie@0.15.0",
          "args": [
            "--acp"
          ],
          "env": {
            "AUGMENT_DISABLE_AUTO_UPDATE": "1"
          }
        }
      }
    },
    {
      "id": "claude-code-acp",
      "name": "Claude Code",
      "version": "0.16.0",
      "description": "ACP wrapper for Anthropic's Claude",
      "repository": "https://github.com/zed-industries/claude-code-acp",
      "authors": [
        "Anthropic"
      ],
      "license": "proprietary",
      "distribution": {
        "npx": {
          "package": "@zed-industries/claude-code-acp@0.16.0"
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/claude-code-acp.svg"
    },
    {
      "id": "codex-acp",
      "name": "Codex CLI",
      "version": "0.9.2",
      "description": "ACP adapter for OpenAI's coding assistant",
      "repository": "https://github.com/zed-industries/codex-acp",
      "authors": [
        "OpenAI",
        "Zed Industries"
      ],
      "license": "Apache-2.0",
      "distribution": {
        "binary": {
          "darwin-aarch64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-aarch64-apple-darwin.tar.gz",
            "cmd": "./codex-acp"
          },
          "darwin-x86_64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-x86_64-apple-darwin.tar.gz",
            "cmd": "./codex-acp"
          },
          "linux-aarch64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-aarch64-unknown-linux-gnu.tar.gz",
            "cmd": "./codex-acp"
          },
          "linux-x86_64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-x86_64-unknown-linux-gnu.tar.gz",
            "cmd": "./codex-acp"
          },
          "windows-aarch64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-aarch64-pc-windows-msvc.zip",
            "cmd": "./codex-acp.exe"
          },
          "windows-x86_64": {
            "archive": "https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-x86_64-pc-windows-msvc.zip",
            "cmd": "./codex-acp.exe"
          }
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/codex-acp.svg"
    },
    {
      "id": "factory-droid",
      "name": "Factory Droid",
      "version": "0.56.3",
      "description": "Factory Droid - AI coding agent powered by Factory AI",
      "authors": [
        "Factory AI"
      ],
      "license": "proprietary",
      "distribution": {
        "binary": {
          "darwin-aarch64": {
            "archive": "https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-darwin-aarch64.tar.gz",
            "cmd": "./droid",
            "args": [
              "exec",
              "--output-format",
              "acp"
            ],
            "env": {
              "DROID_DISABLE_AUTO_UPDATE": "true",
              "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"
            }
          },
          "darwin-x86_64": {
            "archive": "https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-darwin-x86_64.tar.gz",
            "cmd": "./droid",
            "args": [
              "exec",
              "--output-format",
              "acp"
            ],
            "env": {
              "DROID_DISABLE_AUTO_UPDATE": "true",
              "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"
            }
          },
          "linux-x86_64": {
            "archive": "https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-linux-x86_64.tar.gz",
            "cmd": "./droid",
            "args": [
              "exec",
              "--output-format",
              "acp"
            ],
            "env": {
              "DROID_DISABLE_AUTO_UPDATE": "true",
              "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"
            }
          },
          "linux-aarch64": {
            "archive": "https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-linux-aarch64.tar.gz",
            "cmd": "./droid",
            "args": [
              "exec",
              "--output-format",
              "acp"
            ],
            "env": {
              "DROID_DISABLE_AUTO_UPDATE": "true",
              "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"
            }
          },
          "windows-x86_64": {
            "archive": "https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-windows-x86_64.zip",
            "cmd": "./droid.exe",
            "args": [
              "exec",
              "--output-format",
              "acp"
            ],
            "env": {
              "DROID_DISABLE_AUTO_UPDATE": "true",
              "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"
            }
          }
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/factory-droid.svg"
    },
    {
      "id": "gemini",
      "name": "Gemini CLI",
      "version": "0.27.3",
      "description": "Google's official CLI for Gemini",
      "repository": "https://github.com/google-gemini/gemini-cli",
      "authors": [
        "Google"
      ],
      "license": "Apache-2.0",
      "distribution": {
        "npx": {
          "package": "@google/gemini-cli@0.27.3",
          "args": [
            "--experimental-acp"
          ]
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/gemini.svg"
    },
    {
      "id": "github-copilot",
      "name": "GitHub Copilot",
      "version": "1.425.0",
      "description": "GitHub's AI pair programmer",
      "repository": "https://github.com/github/copilot-language-server-release",
      "authors": [
        "Microsoft"
      ],
      "license": "proprietary",
      "distribution": {
        "npx": {
          "package": "@github/copilot-language-server@1.425.0",
          "args": [
            "--acp"
          ]
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/github-copilot.svg"
    },
    {
      "id": "kimi",
      "name": "Kimi CLI",
      "version": "1.9.0",
      "description": "Moonshot AI's coding assistant",
      "repository": "https://github.com/MoonshotAI/kimi-cli",
      "authors": [
        "Moonshot AI"
      ],
      "license": "MIT",
      "distribution": {
        "binary": {
          "darwin-aarch64": {
            "archive": "https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-aarch64-apple-darwin.tar.gz",
            "cmd": "./kimi",
            "args": [
              "acp"
            ]
          },
          "linux-aarch64": {
            "archive": "https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-aarch64-unknown-linux-gnu.tar.gz",
            "cmd": "./kimi",
            "args": [
              "acp"
            ]
          },
          "linux-x86_64": {
            "archive": "https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-x86_64-unknown-linux-gnu.tar.gz",
            "cmd": "./kimi",
            "args": [
              "acp"
            ]
          },
          "windows-x86_64": {
            "archive": "https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-x86_64-pc-windows-msvc.zip",
            "cmd": "./kimi.exe",
            "args": [
              "acp"
            ]
          }
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/kimi.svg"
    },
    {
      "id": "mistral-vibe",
      "name": "Mistral Vibe",
      "version": "2.0.2",
      "description": "Mistral's open-source coding assistant",
      "repository": "https://github.com/mistralai/mistral-vibe",
      "authors": [
        "Mistral AI"
      ],
      "license": "Apache-2.0",
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/mistral-vibe.svg",
      "distribution": {
        "binary": {
          "darwin-aarch64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-darwin-aarch64-2.0.2.zip",
            "cmd": "./vibe-acp"
          },
          "darwin-x86_64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-darwin-x86_64-2.0.2.zip",
            "cmd": "./vibe-acp"
          },
          "linux-aarch64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-linux-aarch64-2.0.2.zip",
            "cmd": "./vibe-acp"
          },
          "linux-x86_64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-linux-x86_64-2.0.2.zip",
            "cmd": "./vibe-acp"
          },
          "windows-aarch64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-windows-aarch64-2.0.2.zip",
            "cmd": "./vibe-acp.exe"
          },
          "windows-x86_64": {
            "archive": "https://github.com/mistralai/mistral-vibe/releases/download/v2.0.2/vibe-acp-windows-x86_64-2.0.2.zip",
            "cmd": "./vibe-acp.exe"
          }
        }
      }
    },
    {
      "id": "opencode",
      "name": "OpenCode",
      "version": "1.1.53",
      "description": "The open source coding agent",
      "repository": "https://github.com/sst/opencode",
      "authors": [
        "Anomaly"
      ],
      "license": "MIT",
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/opencode.svg",
      "distribution": {
        "binary": {
          "darwin-aarch64": {
            "archive": "https://github.com/sst/opencode/releases/download/v1.1.53/opencode-darwin-arm64.zip",
            "cmd": "./opencode",
            "args": [
              "acp"
            ]
          },
          "darwin-x86_64": {
            "archive": "https://github.com/sst/opencode/releases/download/v1.1.53/opencode-darwin-x64.zip",
            "cmd": "./opencode",
            "args": [
              "acp"
            ]
          },
          "linux-aarch64": {
            "archive": "https://github.com/sst/opencode/releases/download/v1.1.53/opencode-linux-arm64.tar.gz",
            "cmd": "./opencode",
            "args": [
              "acp"
            ]
          },
          "linux-x86_64": {
            "archive": "https://github.com/sst/opencode/releases/download/v1.1.53/opencode-linux-x64.tar.gz",
            "cmd": "./opencode",
            "args": [
              "acp"
            ]
          },
          "windows-x86_64": {
            "archive": "https://github.com/sst/opencode/releases/download/v1.1.53/opencode-windows-x64.zip",
            "cmd": "./opencode.exe",
            "args": [
              "acp"
            ]
          }
        }
      }
    },
    {
      "id": "qoder",
      "name": "Qoder CLI",
      "version": "0.1.26",
      "description": "AI coding assistant with agentic capabilities",
      "authors": [
        "Qoder AI"
      ],
      "license": "proprietary",
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/qoder.svg",
      "distribution": {
        "npx": {
          "package": "@qoder-ai/qodercli@0.1.26",
          "args": [
            "--acp"
          ]
        }
      }
    },
    {
      "id": "qwen-code",
      "name": "Qwen Code",
      "version": "0.9.1",
      "description": "Alibaba's Qwen coding assistant",
      "repository": "https://github.com/QwenLM/qwen-code",
      "authors": [
        "Alibaba Qwen Team"
      ],
      "license": "Apache-2.0",
      "distribution": {
        "npx": {
          "package": "@qwen-code/qwen-code@0.9.1",
          "args": [
            "--acp",
            "--experimental-skills"
          ]
        }
      },
      "icon": "https://cdn.agentclientprotocol.com/registry/v1/latest/qwen-code.svg"
    }
  ],
  "extensions": []
}
`;

"""Facts from whole Rust, Go, JavaScript and TypeScript files at both revisions, each case
written from the language's own rules (visibility, tests, methods, environment reads)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.analysis.facts import Facts, read_facts
from bot.analysis.facts.scan import Side
from bot.analysis.facts.trees import side_reader
from bot.analysis.paths import language_of
from bot.analysis.sources import worth_reading
from bot.models import FileChange
from tests.support import whole_commit


def _facts(*files: tuple[str, str | None, str | None]) -> Facts:
    return read_facts(whole_commit(*files))


def _names(group: tuple[Any, ...]) -> list[str]:
    return sorted(n.name for n in group)


def _public(group: tuple[Any, ...]) -> dict[str, bool]:
    return {n.name: n.public for n in group}


# --- Rust -------------------------------------------------------------------------------

RUST_BEFORE = """\
    use std::time::Duration;

    /// Settings for one client.
    pub struct Config {
        pub timeout_secs: u64,
        retries: u32,
    }

    impl Default for Config {
        fn default() -> Self {
            Config { timeout_secs: 30, retries: 3 }
        }
    }

    pub struct Client {
        config: Config,
    }

    impl Client {
        pub fn new(config: Config) -> Self {
            Client { config }
        }

        pub fn connect(&self) -> Result<(), String> {
            // pub fn reconnect(&self) was here; std::env::var("OLD_HOST") too
            let host = std::env::var("APP_HOST").unwrap_or("localhost".to_string());
            self.dial(&host, Duration::from_secs(self.config.timeout_secs))
        }

        fn dial(&self, host: &str, timeout: Duration) -> Result<(), String> {
            if host.is_empty() { return Err("no host".into()); }
            let _ = timeout;
            Ok(())
        }

        pub(crate) fn pool_size(&self) -> usize {
            4
        }
    }

    fn backoff(attempt: u32) -> u64 {
        2u64.pow(attempt)
    }

    pub fn legacy_connect(host: &str) -> bool {
        !host.is_empty()
    }
"""

RUST_AFTER = """\
    use std::time::Duration;

    /// Settings for one client.
    pub struct Config {
        pub timeout_secs: u64,
        retries: u32,
    }

    impl Default for Config {
        fn default() -> Self {
            Config { timeout_secs: 60, retries: 5 }
        }
    }

    pub struct Client {
        config: Config,
    }

    impl Client {
        pub fn new(config: Config) -> Self {
            Client { config }
        }

        pub fn connect(&self) -> Result<(), String> {
            let host = std::env::var("APP_HOST").unwrap_or("localhost".to_string());
            let token = std::env::var("APP_TOKEN").ok();
            let message = "set std::env::var(\\"NOT_READ\\") to configure";
            fn describe(host: &str) -> String {
                format!("dialing {host}")
            }
            let _ = (token, message, describe(&host));
            self.dial(&host, Duration::from_secs(self.config.timeout_secs))
        }

        fn dial(&self, host: &str, timeout: Duration) -> Result<(), String> {
            if host.is_empty() { return Err("no host".into()); }
            let _ = timeout;
            Ok(())
        }

        pub(crate) fn pool_size(&self) -> usize {
            8
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn connects_to_localhost() {
            assert!(Client::new(Config::default()).connect().is_ok());
        }
    }
"""


def test_rust_methods_are_named_by_their_type_and_private_items_are_not_public() -> None:
    facts = _facts(("src/client.rs", RUST_BEFORE, RUST_AFTER))
    # `fn backoff` has no `pub`: removing it breaks no caller outside the module
    assert _public(facts.removed) == {"backoff": False, "legacy_connect": True}
    # `describe` is nested in `connect`: `connect` changes, no name is added; the `pub fn`
    # in a comment was never a definition
    assert _names(facts.added) == []
    assert _public(facts.changed) == {
        "Client::connect": True,
        "Client::pool_size": False,
        "Config::default": True,
    }


def test_rust_reads_the_environment_from_calls_only() -> None:
    facts = _facts(("src/client.rs", RUST_BEFORE, RUST_AFTER))
    assert _names(facts.env_added) == ["APP_TOKEN"]
    assert _names(facts.env_removed) == []


def test_rust_default_impl_gives_public_field_defaults() -> None:
    facts = _facts(("src/client.rs", RUST_BEFORE, RUST_AFTER))
    # `retries` has no `pub`: its default is the module's own business
    assert [(d.name, d.old, d.new) for d in facts.defaults_changed] == [
        ("Config::timeout_secs", "30", "60")
    ]


def test_rust_test_attribute_makes_a_test_wherever_it_is() -> None:
    facts = _facts(("src/client.rs", RUST_BEFORE, RUST_AFTER))
    assert _names(facts.tests_added) == ["tests::connects_to_localhost"]


def test_rust_a_test_moved_to_another_file_is_not_added() -> None:
    body = (
        '    let c = Config::default();\n    assert_eq!(c.timeout_secs, 30, "default timeout");\n'
    )
    test = f"#[test]\nfn default_timeout() {{\n{body}}}\n"
    facts = _facts(
        ("src/config.rs", f"pub struct Config {{}}\n{test}", "pub struct Config {}\n"),
        ("tests/config.rs", None, test.replace("default_timeout", "timeout_is_thirty")),
    )
    assert facts.tests_added == ()


def test_rust_pub_use_re_exports() -> None:
    before = (
        "mod client;\npub use client::{Client, Config};\npub use errors::Error as ClientError;\n"
    )
    after = "mod client;\npub use client::Client;\nuse errors::Error as ClientError;\n"
    facts = _facts(("src/lib.rs", before, after))
    assert _names(facts.exports_removed) == ["Config"]


# --- Go ---------------------------------------------------------------------------------

GO_BEFORE = """\
    package server

    import (
        "net/http"
        "os"
    )

    // Server serves the API. os.Getenv("IN_COMMENT") is not read here.
    type Server struct {
        Addr string
        mux  *http.ServeMux
    }

    type handlerSet struct{}

    func NewServer(addr string) *Server {
        return &Server{Addr: addr, mux: http.NewServeMux()}
    }

    func (s *Server) Start() error {
        port := os.Getenv("PORT")
        if port == "" {
            port = "8080"
        }
        return http.ListenAndServe(s.Addr+":"+port, s.mux)
    }

    func (h handlerSet) Register(mux *http.ServeMux) {
        mux.HandleFunc("/health", health)
    }

    func health(w http.ResponseWriter, r *http.Request) {
        w.WriteHeader(http.StatusOK)
    }

    func Legacy() {}
"""

GO_AFTER = """\
    package server

    import (
        "net/http"
        "os"
    )

    // Server serves the API. os.Getenv("IN_COMMENT") is not read here.
    type Server struct {
        Addr string
        mux  *http.ServeMux
    }

    type handlerSet struct{}

    func NewServer(addr string) *Server {
        return &Server{Addr: addr, mux: http.NewServeMux()}
    }

    func (s *Server) Start() error {
        port := os.Getenv("PORT")
        if port == "" {
            port = "8080"
        }
        if _, debug := os.LookupEnv("SERVER_DEBUG"); debug {
            log := func(msg string) { println("server: " + msg) }
            log("debug on")
        }
        return http.ListenAndServe(s.Addr+":"+port, s.mux)
    }

    func (s *Server) Stop() error {
        return nil
    }

    func (h handlerSet) Register(mux *http.ServeMux) {
        mux.HandleFunc("/healthz", health)
    }

    func (h handlerSet) Describe() string { return "os.Getenv(\\"IN_STRING\\")" }

    func health(w http.ResponseWriter, r *http.Request) {
        w.WriteHeader(http.StatusNoContent)
    }
"""


def test_go_methods_are_named_by_their_receiver_and_exported_by_capital() -> None:
    facts = _facts(("server/server.go", GO_BEFORE, GO_AFTER))
    # a method of the unexported `handlerSet` is not the package's API, even capitalised
    assert _public(facts.added) == {"Server.Stop": True, "handlerSet.Describe": False}
    assert _public(facts.removed) == {"Legacy": True}
    # the closure `log` is `Start`'s own, not a name of the package
    assert _public(facts.changed) == {
        "Server.Start": True,
        "handlerSet.Register": False,
        "health": False,
    }


def test_go_reads_the_environment_from_calls_only() -> None:
    facts = _facts(("server/server.go", GO_BEFORE, GO_AFTER))
    assert _names(facts.env_added) == ["SERVER_DEBUG"]
    assert facts.env_removed == ()


GO_TEST = """\
    package server

    import "testing"

    func TestStart(t *testing.T) {
        s := NewServer("127.0.0.1")
        if s.Addr != "127.0.0.1" {
            t.Fatalf("addr %q", s.Addr)
        }
    }

    func Testify(t *testing.T) {}

    func TestHelper(name string) {}

    func BenchmarkStart(b *testing.B) {}
"""


def test_go_tests_follow_go_test_rules() -> None:
    facts = _facts(("server/server_test.go", None, GO_TEST))
    # `Testify` has a lower-case letter after `Test`; `TestHelper` takes no `*testing.T`
    assert _names(facts.tests_added) == ["TestStart"]


def test_go_test_functions_outside_a_test_file_are_not_tests() -> None:
    facts = _facts(("server/fixtures.go", None, GO_TEST))
    assert facts.tests_added == ()


def test_go_a_renamed_function_with_the_same_body_is_renamed() -> None:
    body = (
        '\tvalue := os.Getenv("TIMEOUT")\n\tif value == "" {\n\t\treturn 30\n\t}\n'
        "\tn, _ := strconv.Atoi(value)\n\treturn n\n"
    )
    facts = _facts(
        (
            "config/config.go",
            f"package config\n\nfunc Timeout() int {{\n{body}}}\n",
            f"package config\n\nfunc TimeoutSeconds() int {{\n{body}}}\n",
        )
    )
    assert [(r.old.name, r.new.name) for r in facts.renamed] == [("Timeout", "TimeoutSeconds")]
    assert facts.added == facts.removed == ()


# --- JavaScript and TypeScript ------------------------------------------------------------

TS_BEFORE = """\
    import { Agent } from "./agent";

    export interface Options {
      retries: number;
    }

    export class Client {
      timeout = 30;
      private cache = new Map<string, string>();

      constructor(private readonly agent: Agent, retries: number = 3) {}

      async get(url: string, redirect: number = 302): Promise<string> {
        // export function fetchAll() {} was planned here
        return this.agent.request(url, { redirect });
      }

      private key(url: string): string {
        return url.toLowerCase();
      }
    }

    export function createClient(agent: Agent, retries = 3): Client {
      return new Client(agent, retries);
    }

    function normalise(url: string, trailing = false): string {
      return trailing ? url : url.replace(/\\/$/, "");
    }

    export const version = () => "1.0";
"""

TS_AFTER = """\
    import { Agent } from "./agent";

    export interface Options {
      retries: number;
    }

    export class Client {
      timeout = 60;
      private cache = new Map<string, boolean>();

      constructor(private readonly agent: Agent, retries: number = 3) {}

      async get(url: string, redirect: number = 303): Promise<string> {
        function log(message: string): void {
          console.debug(message);
        }
        log(url);
        return this.agent.request(url, { redirect });
      }

      #key(url: string): string {
        return url.toLowerCase();
      }

      async head(url: string): Promise<void> {
        await this.agent.request(url, { method: "HEAD" });
      }
    }

    export function createClient(agent: Agent, retries = 5): Client {
      const proxy = process.env.HTTPS_PROXY ?? process.env["HTTP_PROXY"];
      const message = "set process.env.NOT_READ to configure";
      process.env.CLIENT_STARTED = "1";
      return new Client(agent, retries);
    }

    function normalise(url: string, trailing = true): string {
      return trailing ? url : url.replace(/\\/$/, "");
    }
"""


def test_ts_class_members_exports_and_nested_functions() -> None:
    facts = _facts(("src/client.ts", TS_BEFORE, TS_AFTER))
    # `log` is nested in `get`: not a member of `Client`; a `#private` method is private
    assert _public(facts.added) == {"Client.head": True, "Client.#key": False}
    assert _public(facts.removed) == {"Client.key": False, "version": True}
    assert "fetchAll" not in facts.names()


def test_ts_public_signature_and_field_defaults_change_and_private_ones_are_not_said() -> None:
    facts = _facts(("src/client.ts", TS_BEFORE, TS_AFTER))
    changes = {(d.name, d.old, d.new) for d in facts.defaults_changed}
    # `normalise` is not exported: its default is nobody else's
    assert changes == {
        ("Client.get(redirect)", "302", "303"),
        ("createClient(retries)", "3", "5"),
        ("Client.timeout", "30", "60"),
    }


def test_ts_reads_the_environment_from_code_only() -> None:
    facts = _facts(("src/client.ts", TS_BEFORE, TS_AFTER))
    # an assignment sets a variable for a child process; a string is not a read
    assert _names(facts.env_added) == ["HTTPS_PROXY", "HTTP_PROXY"]


def test_js_export_lists_and_commonjs_exports() -> None:
    before = """\
        function parse(text) {
          return JSON.parse(text);
        }
        function format(value) {
          return JSON.stringify(value);
        }
        export { parse, format as stringify };
    """
    after = """\
        function parse(text) {
          return JSON.parse(text);
        }
        function format(value) {
          return JSON.stringify(value);
        }
        export { parse };
    """
    facts = _facts(("lib/json.js", before, after))
    assert _names(facts.exports_removed) == ["stringify"]
    # `format` is no longer exported: its definition is the same, so it did not change
    assert facts.removed == facts.changed == ()

    cjs_before = "function load(path) {\n  return path;\n}\nmodule.exports = { load };\n"
    cjs_after = (
        "function load(path, strict = false) {\n  return path;\n}\nmodule.exports = { load };\n"
    )
    facts = _facts(("lib/load.cjs", cjs_before, cjs_after))
    assert _public(facts.changed) == {"load": True}


def test_js_a_star_re_export_may_still_provide_a_removed_name() -> None:
    facts = _facts(
        (
            "src/index.mjs",
            'export * from "./core.mjs";\nexport function helper() {\n  return 1;\n}\n',
            'export * from "./core.mjs";\n',
        )
    )
    assert facts.removed == ()


JS_TEST_BEFORE = """\
    describe("Client", () => {
      it("retries three times", async () => {
        const client = createClient(agent);
        expect(await client.get("/flaky")).toBe("ok");
      });
    });
"""

JS_TEST_AFTER = """\
    describe("Client", () => {
      describe("retries", () => {
        it("three times", async () => {
          const client = createClient(agent);
          expect(await client.get("/flaky")).toBe("ok");
        });
      });
      test.only(`times out`, () => {
        expect(createClient(agent).timeout).toBe(60);
      });
      // it("is commented out", () => {});
    });
"""


@pytest.mark.parametrize(
    "path", ["test/client.js", "src/client.test.js", "src/__tests__/client.jsx"]
)
def test_js_tests_are_named_as_written_and_a_moved_one_is_not_added(path: str) -> None:
    # "three times" has the body "retries three times" had: moved into a suite, renamed
    facts = _facts((path, JS_TEST_BEFORE, JS_TEST_AFTER))
    assert _names(facts.tests_added) == ["times out"]


def test_js_test_calls_outside_test_files_are_not_tests() -> None:
    facts = _facts(("src/client.js", None, JS_TEST_AFTER))
    assert facts.tests_added == ()


def test_tsx_components_parse() -> None:
    before = """\
        export function Button({ label }: { label: string }) {
          return <button>{label}</button>;
        }
    """
    after = """\
        export function Button({ label, size = "md" }: { label: string; size?: string }) {
          return <button className={size}>{label}</button>;
        }

        export function IconButton({ icon }: { icon: string }) {
          return <Button label={icon} />;
        }
    """
    facts = _facts(("web/button.tsx", before, after))
    assert _public(facts.added) == {"IconButton": True}
    assert _names(facts.changed) == ["Button"]


@pytest.mark.parametrize(
    ("path", "broken"),
    [
        ("src/lib.rs", "pub fn broken( {\n"),
        ("main.go", "package main\nfunc broken( {\n"),
        ("src/app.ts", "export function broken( {\n"),
    ],
)
def test_a_side_with_a_syntax_error_is_not_read_whole(path: str, broken: str) -> None:
    # tree-sitter skips what it cannot read: a definition after the error would seem removed
    facts = _facts((path, "", broken))
    assert facts.added == facts.removed == ()


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("src/main.rs", 'fn main() {\n    let _ = std::env::var("APP_MODE");\n}\n'),
        ("main.go", 'package main\n\nimport "os"\n\nfunc main() { _ = os.Getenv("APP_MODE") }\n'),
        ("src/main.ts", "export const mode = process.env.APP_MODE;\n"),
    ],
)
def test_reads_are_found_after_leading_blank_lines(path: str, source: str) -> None:
    # the parsed tree starts at the first token, not at the text's first byte (a commit's
    # texts come stripped, so the reader is called on the text itself)
    language = language_of(path)
    assert language is not None
    side = Side()
    assert side_reader(language, path, tests=False)(f"\n\n\n{source}", side)
    assert list(side.env) == ["APP_MODE"]


@pytest.mark.parametrize(
    ("path", "before", "after", "name"),
    [
        (
            "completions.go",
            "package cobra\n\ntype CompletionFunc func(args []string) []string\n",
            "package cobra\n\ntype CompletionFunc = func(args []string) []string\n",
            "CompletionFunc",
        ),
        ("src/lib.rs", "pub struct Id(u64);\n", "pub type Id = u64;\n", "Id"),
        (
            "src/options.ts",
            "export interface Options {\n  retries: number;\n}\n",
            "export type Options = {\n  retries: number;\n};\n",
            "Options",
        ),
    ],
)
def test_a_type_replaced_by_an_alias_is_changed_not_removed(
    path: str, before: str, after: str, name: str
) -> None:
    facts = _facts((path, before, after))
    assert facts.removed == ()
    assert _names(facts.changed) == [name]


EXPRESS_BEFORE = """\
    var res = Object.create(http.ServerResponse.prototype);
    module.exports = res;

    res.send = function send(body) {
      this.setHeader("Content-Length", Buffer.byteLength(body));
      return this.end(body);
    };

    function Router(options) {
      this.stack = [];
    }

    Router.prototype.use = function use(fn) {
      this.stack.push(fn);
      return this;
    };

    var cache = {};
    cache.clear = function () {
      for (var key in cache) delete cache[key];
    };
"""

EXPRESS_AFTER = """\
    var res = Object.create(http.ServerResponse.prototype);
    module.exports = res;

    res.send = function send(body) {
      if (!this.getHeader("Transfer-Encoding")) {
        this.setHeader("Content-Length", Buffer.byteLength(body));
      }
      return this.end(body);
    };

    function Router(options) {
      this.stack = [];
    }

    Router.prototype.use = function use(fn) {
      this.stack.push(fn);
      return this;
    };

    Router.prototype.route = function route(path) {
      return new Route(path);
    };

    var cache = {};
    cache.clear = function () {
      for (var key of Object.keys(cache)) delete cache[key];
    };
"""


def test_js_commonjs_assignments_define_functions_and_prototype_methods() -> None:
    facts = _facts(("lib/response.js", EXPRESS_BEFORE, EXPRESS_AFTER))
    # `res` is `module.exports`; `Router` and `cache` are not exported
    assert _public(facts.changed) == {"res.send": True, "cache.clear": False}
    assert _public(facts.added) == {"Router.route": False}


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        (
            "src/options.ts",
            "export interface Options {\n  /** How often to retry. */\n  retries: number;\n}\n",
            "export interface Options {\n  /** How many times to retry. */\n  retries: number;\n}\n",
        ),
        (
            "src/lib.rs",
            "pub fn port() -> u16 {\n    // the default\n    8080\n}\n",
            "pub fn port() -> u16 {\n    // the IANA default\n    8080\n}\n",
        ),
    ],
)
def test_a_comment_edit_changes_no_definition(path: str, before: str, after: str) -> None:
    assert _facts((path, before, after)).changed == ()


def test_a_string_that_looks_like_a_comment_is_code() -> None:
    before = 'package web\n\nfunc Home() string {\n\treturn "https://a.example"\n}\n'
    facts = _facts(("web/home.go", before, before.replace("a.example", "b.example")))
    assert _names(facts.changed) == ["Home"]


def test_a_method_edit_does_not_change_its_class() -> None:
    before = (
        "export class Ky {\n  // the request\n  request: Request;\n\n"
        "  /** Sends it. */\n  send(): void {\n    fetch(this.request);\n  }\n}\n"
    )
    after = before.replace("fetch(this.request)", "fetch(this.request.clone())")
    facts = _facts(("source/core/Ky.ts", before, after))
    assert _names(facts.changed) == ["Ky.send"]
    facts = _facts(("source/core/Ky.ts", before, before.replace("request: Request", "url: URL")))
    assert _names(facts.changed) == ["Ky"]


def test_these_languages_are_fetched_whole_but_not_minified_or_vendored_code() -> None:
    paths = ["src/lib.rs", "cmd/main.go", "lib/app.cjs", "web/ui.tsx", "types/index.d.ts"]
    skipped = ["dist/app.min.js", "vendor/github.com/x/y.go", "tox.ini", "docs/a.txt"]
    files = [
        FileChange(filename=p, status="modified")
        for p in ["README.md", *paths, *skipped, "setup.cfg"]
    ]
    # Markdown documents too (their headings), after the code within the bounds; packaging
    # metadata (setup.cfg, pyproject.toml) first
    assert [f.filename for f in worth_reading(files)] == ["setup.cfg", *paths, "README.md"]


def test_a_js_test_file_reading_the_environment_adds_no_setting() -> None:
    # a test's `process.env.X` is the test's own set-up, not a setting the package reads
    source = 'const url = process.env.TEST_SERVER_URL;\ntest("gets", () => {});\n'
    facts = _facts(("src/client.spec.ts", None, source))
    assert facts.env_added == ()
    assert _names(facts.tests_added) == ["gets"]

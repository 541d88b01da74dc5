#!/usr/bin/env python3
"""The commit-msg hook (tools/hooks/commit-msg) and its installer (tools/hooks/install.sh).

Usage: test_hooks.py SOURCE_DIR. The messages are checked by running the hook as git does; the
installer in scratch repositories, then a real `git commit` through the installed hook.
"""
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.getcwd()
HOOK = os.path.join(SOURCE, "tools", "hooks", "commit-msg")
INSTALL = os.path.join(SOURCE, "tools", "hooks", "install.sh")
ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
           GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org",
           GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")


def run(args, cwd=None):
    return subprocess.run(args, cwd=cwd, env=ENV, capture_output=True, text=True)


def hook(message):
    with tempfile.NamedTemporaryFile("w", suffix=".msg", delete=False, encoding="utf-8") as f:
        f.write(message)
    try:
        return run([HOOK, f.name])
    finally:
        os.unlink(f.name)


class Messages(unittest.TestCase):
    def test_accepted(self):
        for message in ["Fix the parser\n",
                        "x" * 72 + "\n\nbody line\n",
                        # 72 characters of which 2 are not ASCII: characters count, not bytes
                        "é" * 2 + "y" * 70 + "\n",
                        # git's template: leading blank line, comments, and after the
                        # scissors line of `commit -v` the diff, whatever its lines
                        "\nFix it\n# Please enter the commit message\n\nBody\n"
                        "# ------------------------ >8 ------------------------\n"
                        + "w" * 100 + "\n",
                        # a comment line between subject and body is stripped by git
                        "Fix it\n# comment\n\nBody\n"]:
            with self.subTest(message=message):
                r = hook(message)
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_refused(self):
        cases = [("x" * 73 + "\n", "the subject has 73 characters, at most 72 expected"),
                 ("Fix it\nno blank line\n", "expected a blank line between the subject"),
                 ("\n\n" + "z" * 100 + "\n\nbody\n", "the subject has 100 characters")]
        for message, why in cases:
            with self.subTest(message=message):
                r = hook(message)
                self.assertEqual(r.returncode, 1)
                self.assertIn(why, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1)


class Installer(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.repo = os.path.join(self.dir.name, "repo")
        os.mkdir(self.repo)
        run(["git", "init", "-q", self.repo])
        self.target = os.path.join(self.repo, ".git", "hooks", "commit-msg")

    def tearDown(self):
        self.dir.cleanup()

    def install(self, where):
        r = run(["bash", INSTALL, where])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_installs_once_and_commits_go_through_it(self):
        self.assertIn("installed the commit-msg hook", self.install(self.repo))
        with open(HOOK, "rb") as a, open(self.target, "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertTrue(os.access(self.target, os.X_OK))
        self.assertEqual(self.install(self.repo), "")  # already there: silent
        with open(os.path.join(self.repo, "f"), "w") as f:
            f.write("x")
        run(["git", "add", "f"], cwd=self.repo)
        bad = run(["git", "commit", "-q", "-m", "s" * 73], cwd=self.repo)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("73 characters", bad.stderr)
        good = run(["git", "commit", "-q", "-m", "Add f", "-m", "Why, with figures."],
                   cwd=self.repo)
        self.assertEqual(good.returncode, 0, good.stderr)

    def test_keeps_a_users_own_hook(self):
        os.makedirs(os.path.dirname(self.target), exist_ok=True)
        with open(self.target, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        self.assertIn("is your own: kept", self.install(self.repo))
        with open(self.target) as f:
            self.assertEqual(f.read(), "#!/bin/sh\nexit 0\n")

    def test_nothing_outside_a_checkout_or_in_a_subfolder(self):
        plain = os.path.join(self.dir.name, "plain")
        os.mkdir(plain)
        self.assertEqual(self.install(plain), "")
        sub = os.path.join(self.repo, "sub")
        os.mkdir(sub)
        self.assertEqual(self.install(sub), "")  # a tree unpacked inside another repository
        self.assertFalse(os.path.exists(self.target))


if __name__ == "__main__":
    unittest.main()

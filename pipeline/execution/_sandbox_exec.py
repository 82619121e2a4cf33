"""Sandbox entry point, run (as root) in front of every sandboxed command; stdlib only.

Usage: `python -I -S _sandbox_exec.py '<json config>' -- argv...`. In order, it:

1. joins the sandbox's network namespace (an fd passed by the pipeline) and unshares a mount
   namespace whose mounts are private (nothing propagates back to the host);
2. mounts a fresh sysfs on /sys, so /sys/class/net lists only the namespace's `lo`;
3. makes readable what the command needs but cannot reach as the unprivileged uid (e.g. a
   Python under /root, which is 0700): a small tmpfs covers the blocking folder and only the
   needed entries are bind-mounted back, keeping their own permissions;
4. makes the whole tree read-only and nosuid, then mounts the writable places: a size-capped
   tmpfs for the scratch HOME/TMPDIR (owned by the uid), a private /dev/shm, and the declared
   writable folders through idmapped mounts (root-owned files appear owned by the uid; what it
   writes lands on disk as root), so nothing is chowned on the host;
5. drops to the sandbox uid/gid with no supplementary groups and no_new_privs, and execs.

On any failure it prints one line to stderr and exits with 125.
"""

import ctypes
import json
import os
import stat
import sys
import warnings  # noqa: F401  (os.execvp imports it lazily: after the drop it may be unreadable)

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWUSER = 0x00020000, 0x40000000, 0x10000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
SYS_OPEN_TREE, SYS_MOVE_MOUNT, SYS_MOUNT_SETATTR = 428, 429, 442
OPEN_TREE_CLONE, AT_RECURSIVE, AT_EMPTY_PATH, AT_FDCWD = 1, 0x8000, 0x1000, -100
MOVE_MOUNT_F_EMPTY_PATH = 4
ATTR_RDONLY, ATTR_NOSUID, ATTR_IDMAP = 0x1, 0x2, 0x100000
PR_SET_NO_NEW_PRIVS = 38
EXIT_SETUP = 125

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _check(rc: int, what: str) -> int:
    if rc < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return rc


def _mount(src: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    _check(_libc.mount(src and src.encode(), target.encode(), fstype and fstype.encode(),
                       ctypes.c_ulong(flags), data.encode() or None), f"mount {target}")


def _setattr(dfd: int, path: str, flags: int, attr_set: int, attr_clr: int = 0,
             userns_fd: int = 0) -> None:
    attr = _MountAttr(attr_set, attr_clr, 0, userns_fd)
    _check(_libc.syscall(SYS_MOUNT_SETATTR, dfd, path.encode(), flags, ctypes.byref(attr),
                         ctypes.sizeof(attr)), f"mount_setattr {path or dfd}")


def _idmap_userns(uid: int) -> int:
    """An fd of a user namespace mapping id 0 (the files' owner, root) to `uid`."""
    go_r, go_w = os.pipe()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child only holds the namespace until the parent has opened it
        try:
            os.close(go_w)
            os.close(ready_r)
            if _libc.unshare(CLONE_NEWUSER) == 0:
                os.write(ready_w, b"1")
                os.read(go_r, 1)
        finally:
            os._exit(0)
    os.close(go_r)
    os.close(ready_w)
    try:
        if os.read(ready_r, 1) != b"1":
            raise OSError(1, "unshare(CLONE_NEWUSER) failed")
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{pid}/{name}", "w") as fh:
                fh.write(f"0 {uid} 1\n")
        return os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(go_w)
        os.close(ready_r)
        os.waitpid(pid, 0)


def _searchable(path: str, uid: int) -> bool:
    st = os.stat(path)
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IXUSR)
    if st.st_gid == uid:
        return bool(st.st_mode & stat.S_IXGRP)
    return bool(st.st_mode & stat.S_IXOTH)


def _plan_exposure(paths: list[str], skip_self: set[str], uid: int) -> dict[str, dict[str, int]]:
    """Blocking folder -> {entry name: O_PATH fd} to bind back over a tmpfs covering it."""
    plan: dict[str, dict[str, int]] = {}
    for path in paths:
        if os.path.lexists(path):
            _plan_path(plan, path, skip_self, uid)
    return plan


def _plan_path(plan: dict[str, dict[str, int]], path: str, skip_self: set[str],
               uid: int) -> None:
    """Add to `plan` what keeps `path` reachable past each folder on the way that `uid`
    cannot search: the next entry, or every entry of `path` itself (unless in `skip_self`)."""
    parts = path.strip("/").split("/")
    for i in range(1, len(parts) + 1):
        folder = "/" + "/".join(parts[:i])
        if not os.path.isdir(folder) or os.path.islink(folder):
            return
        try:
            blocked = not _searchable(folder, uid)
        except OSError:
            return
        if not blocked:
            continue
        if i < len(parts):
            _want(plan, folder, parts[i])
        elif folder not in skip_self:
            for name in os.listdir(folder):
                _want(plan, folder, name)


def _want(plan: dict[str, dict[str, int]], folder: str, name: str) -> None:
    entries = plan.setdefault(folder, {})
    if name not in entries:
        entries[name] = os.open(os.path.join(folder, name), os.O_PATH | os.O_NOFOLLOW)


def _expose(plan: dict[str, dict[str, int]]) -> None:
    for folder in sorted(plan, key=lambda f: f.count("/")):
        entries = plan[folder]
        _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
        for name, fd in entries.items():
            target = os.path.join(folder, name)
            st = os.stat(f"/proc/self/fd/{fd}")
            if stat.S_ISDIR(st.st_mode):
                os.mkdir(target)
            else:
                os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
            _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
            os.close(fd)


def _clone(path: str) -> int:
    return _check(_libc.syscall(SYS_OPEN_TREE, AT_FDCWD, path.encode(),
                                OPEN_TREE_CLONE | os.O_CLOEXEC), f"open_tree {path}")


def setup(cfg: dict) -> None:
    uid = int(cfg["uid"])
    if cfg.get("netns_fd") is not None:
        _check(_libc.setns(int(cfg["netns_fd"]), CLONE_NEWNET), "setns net")
        os.close(int(cfg["netns_fd"]))
    _check(_libc.unshare(CLONE_NEWNS), "unshare mount")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    if cfg.get("netns_fd") is not None:
        _mount("sysfs", "/sys", "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    writable = [w for w in cfg.get("writable", []) if os.path.isdir(w)]
    clones = [(w, _clone(w)) for w in writable]  # detached copies of the real folders
    userns = _idmap_userns(uid) if clones else -1  # before /proc turns read-only
    scratch = cfg.get("scratch")
    if cfg.get("scratch_from_home"):  # HOME=<scratch>/home, made by process.spawn
        scratch = os.path.dirname(os.environ["HOME"])
        if not os.path.basename(scratch).startswith("repogenesis-run-"):
            raise ValueError(f"unexpected HOME {os.environ['HOME']!r}")
    own = [*writable, *([scratch] if scratch else [])]  # mounted over: only their parents
    _expose(_plan_exposure(cfg.get("needed", []) + own, set(own), uid))
    _setattr(AT_FDCWD, "/", AT_RECURSIVE, ATTR_RDONLY | ATTR_NOSUID)
    if os.path.isdir("/dev/shm"):
        _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m")
    if scratch:
        _mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV,
               f"mode=0700,uid={uid},gid={uid},size={int(cfg['scratch_bytes'])}")
        for sub in ("home", "tmp"):
            os.mkdir(os.path.join(scratch, sub), 0o700)
            os.chown(os.path.join(scratch, sub), uid, uid)
    if clones:
        for path, fd in clones:
            _setattr(fd, "", AT_EMPTY_PATH, ATTR_IDMAP | ATTR_NOSUID, ATTR_RDONLY, userns)
            _check(_libc.syscall(SYS_MOVE_MOUNT, fd, b"", AT_FDCWD, path.encode(),
                                 MOVE_MOUNT_F_EMPTY_PATH), f"move_mount {path}")
            os.close(fd)
        os.close(userns)
    os.chdir(os.getcwd())  # re-resolve the working folder through the new mounts
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: _sandbox_exec.py CONFIG -- argv...\n")
        os._exit(2)
    try:
        setup(json.loads(argv[0]))
    except (OSError, ValueError, KeyError) as exc:
        sys.stderr.write(f"repogenesis sandbox: setup failed: {exc}\n")
        sys.stderr.flush()
        os._exit(EXIT_SETUP)
    try:
        os.execvp(argv[2], argv[2:])
    except OSError as exc:
        sys.stderr.write(f"repogenesis sandbox: cannot run {argv[2]}: {exc.strerror}\n")
        sys.stderr.flush()
        os._exit(126 if os.path.exists(argv[2]) else 127)


if __name__ == "__main__":
    main(sys.argv[1:])

//! Every file the host writes goes through here, so that a write lands
//! where the user asked and nowhere else:
//!
//! - a whole file ([`write_whole`]) is written to a new temporary file
//!   beside it, created exclusively and without following a link
//!   (`O_CREAT | O_EXCL | O_NOFOLLOW`), synced, then renamed over the
//!   name asked for; a rename replaces a link at that name, it never
//!   writes through it, and a name that is a link is refused before
//!   anything is written;
//! - a stream ([`create_stream`]: `--games-out`) is opened with
//!   `O_NOFOLLOW`, so a link planted at its name is refused;
//! - a file held for a process's life ([`Held`]: a host's journal, the
//!   record of `web --save`) is locked exclusively (the operating
//!   system's advisory lock, `flock`, through `std::fs::File::try_lock`)
//!   so that a second host on the same file is refused and touches
//!   nothing;
//! - files that hold secrets (a journal holds every seat's token) are
//!   created readable by their owner only (mode 0600).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::limits::io_words;

/// Who may read a file the host creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// As the user's umask says (0666 less the umask): records, reports.
    Shared,
    /// The owner only (0600): files that hold secrets (seat tokens).
    Private,
}

impl Access {
    fn mode(self) -> u32 {
        match self {
            Access::Shared => 0o666,
            Access::Private => 0o600,
        }
    }
}

/// Options that open for writing, never through a link at the name, and
/// create with `access`; the caller says whether to create or empty.
fn no_follow(access: Access) -> OpenOptions {
    let mut o = OpenOptions::new();
    o.write(true)
        .mode(access.mode())
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    o
}

/// Options that create a new file at a name without following a link
/// there, and without taking a file that exists.
fn create_new(access: Access) -> OpenOptions {
    let mut o = no_follow(access);
    o.create_new(true);
    o
}

/// What a write refused or failed with, naming `shown`.
fn cannot(shown: &str, e: &std::io::Error) -> String {
    if e.raw_os_error() == Some(libc::ELOOP) {
        return link_refused(shown);
    }
    format!("{shown}: cannot write: {}", io_words(e))
}

fn link_refused(shown: &str) -> String {
    format!("{shown}: cannot write: it is a symbolic link, and sandtable never writes through one (name the file itself)")
}

/// Refuses a name that is a link, a folder, a device or a pipe.
fn refuse_non_file(path: &Path, shown: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(shown)),
        Ok(m) if !m.is_file() => Err(format!("{shown}: cannot write: not a regular file")),
        _ => Ok(()),
    }
}

/// The number the next temporary name takes.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A new temporary file beside `path` (`.NAME.PID-N.part`), created
/// exclusively: no file or link that was there is opened.
fn temporary_beside(path: &Path, shown: &str, access: Access) -> Result<(File, PathBuf), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{shown}: cannot write: not a file name"))?;
    let mut last = None;
    for attempt in 0..16 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}-{n}", std::process::id()));
        if attempt > 0 {
            // Names squatted by someone else: go on past guessing.
            tmp_name.push(format!("-{:016x}", crate::state::secret_seed()));
        }
        tmp_name.push(".part");
        let tmp = path.with_file_name(tmp_name);
        match create_new(access).open(&tmp) {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(cannot(shown, &e)),
        }
    }
    Err(cannot(
        shown,
        &last.unwrap_or_else(|| std::io::Error::other("no temporary name is free")),
    ))
}

/// Syncs the folder holding `path`, so that a rename in it is on the disk.
fn sync_folder(path: &Path) {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Ok(d) = File::open(dir.unwrap_or(Path::new("."))) {
        let _ = d.sync_all();
    }
}

/// Writes `bytes` to `tmp` (open as `f`), syncs it and renames it over
/// `path`; on failure the temporary file is removed.
fn finish(f: &mut File, tmp: &Path, path: &Path, shown: &str, bytes: &[u8]) -> Result<(), String> {
    let written = f
        .write_all(bytes)
        .and_then(|()| f.sync_all())
        .and_then(|()| std::fs::rename(tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(tmp);
        return Err(cannot(shown, &e));
    }
    sync_folder(path);
    Ok(())
}

/// Replaces `path` with `bytes` whole or not at all (see the module's
/// documentation): a crash at any moment leaves the old contents or the
/// new, never a part, and nothing is written through a link. The error
/// names `shown` (`out/x.yaml: cannot write: no such file or folder`).
pub fn write_whole(
    path: &Path,
    shown: &str,
    bytes: impl AsRef<[u8]>,
    access: Access,
) -> Result<(), String> {
    refuse_non_file(path, shown)?;
    let (mut f, tmp) = temporary_beside(path, shown, access)?;
    finish(&mut f, &tmp, path, shown, bytes.as_ref())
}

/// Writes a file the user named, whole ([`write_whole`], readable as the
/// umask says).
pub fn write_user_file(path: &Path, shown: &str, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    write_whole(path, shown, bytes, Access::Shared)
}

/// Opens `path` to be written from its start as a stream (emptied, or
/// created with `access`), refusing a link at that name.
pub fn create_stream(path: &Path, shown: &str, access: Access) -> Result<File, String> {
    refuse_non_file(path, shown)?;
    no_follow(access)
        .create(true)
        .truncate(true)
        .open(path)
        .map_err(|e| cannot(shown, &e))
}

/// A file this process holds for its life under an exclusive lock: a
/// second process that asks for it is refused while this one runs (and
/// gets it as soon as this one ends, however it ends). The lock is on the
/// file itself, so [`Held::replace`] locks the new file before it takes
/// the name.
#[derive(Debug)]
pub struct Held {
    file: File,
    path: PathBuf,
    access: Access,
}

/// How the refusal of a file another process holds reads.
fn held_elsewhere(shown: &str) -> String {
    format!("{shown}: another sandtable process is using this file (a host or a `web --save` session); stop it first, or choose another file")
}

impl Held {
    /// Takes `path` to append to or replace: with `create`, it is created
    /// (empty, with `access`) when missing; a link there is refused; a file
    /// another process holds is refused without being changed.
    pub fn take(path: &Path, shown: &str, access: Access, create: bool) -> Result<Held, String> {
        refuse_non_file(path, shown)?;
        for _ in 0..16 {
            let file = no_follow(access)
                .read(true)
                .create(create)
                .open(path)
                .map_err(|e| cannot(shown, &e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => return Err(held_elsewhere(shown)),
                Err(std::fs::TryLockError::Error(e)) => return Err(cannot(shown, &e)),
            }
            // The holder may have replaced the file between our open and
            // our lock: the lock counts only if the name is still ours.
            if same_file(&file, path) {
                if access == Access::Private {
                    // One that existed already (an older journal, an empty
                    // file made beforehand) is made the owner's only too.
                    use std::os::unix::fs::PermissionsExt;
                    let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
                }
                return Ok(Held {
                    file,
                    path: path.to_path_buf(),
                    access,
                });
            }
        }
        Err(held_elsewhere(shown))
    }

    /// The open file (appends go to its end when opened so by the caller).
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The held file's length in bytes (0 when it cannot be read).
    pub fn len(&self) -> u64 {
        self.file.metadata().map_or(0, |m| m.len())
    }

    /// Whether the held file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the held file with `bytes` whole (as [`write_whole`]),
    /// keeping the name held: the new file is locked before it takes the
    /// name, and the old one is let go after.
    pub fn replace(&mut self, shown: &str, bytes: impl AsRef<[u8]>) -> Result<(), String> {
        refuse_non_file(&self.path, shown)?;
        let (mut f, tmp) = temporary_beside(&self.path, shown, self.access)?;
        if let Err(e) = f.try_lock() {
            let _ = std::fs::remove_file(&tmp);
            return Err(format!("{shown}: cannot write: {e}"));
        }
        finish(&mut f, &tmp, &self.path, shown, bytes.as_ref())?;
        self.file = f;
        Ok(())
    }
}

/// Whether the open `file` is the one named `path` now.
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    #[test]
    fn a_link_at_the_name_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        let link = dir.path().join("x.yaml");
        symlink(&outside, &link).unwrap();
        let e = write_whole(&link, "x.yaml", "new", Access::Shared).unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        let e = create_stream(&link, "x.yaml", Access::Shared).unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        let e = Held::take(&link, "x.yaml", Access::Private, true).unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_link_planted_at_a_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        let path = dir.path().join("r.yaml");
        // The temporary names this process takes next are links.
        let from = NEXT.load(Ordering::Relaxed);
        for n in from..from + 256 {
            let tmp = dir
                .path()
                .join(format!(".r.yaml.{}-{n}.part", std::process::id()));
            symlink(&outside, &tmp).unwrap();
        }
        write_whole(&path, "r.yaml", "new", Access::Shared).unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn a_whole_write_replaces_and_a_private_file_is_the_owners_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        write_whole(&path, "j", "one", Access::Private).unwrap();
        write_whole(&path, "j", "two", Access::Private).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "a temporary file was left");
    }

    #[test]
    fn a_held_file_is_refused_to_a_second_holder_until_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut first = Held::take(&path, "j.jsonl", Access::Private, true).unwrap();
        let e = Held::take(&path, "j.jsonl", Access::Private, true).unwrap_err();
        assert!(e.contains("another sandtable process"), "{e}");
        first.replace("j.jsonl", "whole").unwrap();
        let e = Held::take(&path, "j.jsonl", Access::Private, true).unwrap_err();
        assert!(e.contains("another sandtable process"), "{e}");
        drop(first);
        assert!(Held::take(&path, "j.jsonl", Access::Private, false).is_ok());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "whole");
    }
}

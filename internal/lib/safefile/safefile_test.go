// Equivalent mutants, which no test can kill, and mutants gremlins
// reports NOT COVERED although a test runs them:
//   - syncDir, "err != nil" after Open negated: on success it then skips
//     the fsync and the close, which no test can observe; Open of a
//     folder just written to does not fail.
//   - Name, "i >= 0" made "i > 0": the cut only matters for i at least
//     len(keep)-2 = 45; i = 0 never reaches it, and i = -1 (no '%') is
//     refused by both.
//   - WriteFile, "tmp != """ negated (NOT COVERED): the rename of a temporary
//     file just written fails only when another process races it.
//   - MkdirAll, Rename and Remove, "case err != nil" of their Lstat (NOT
//     COVERED): gremlins maps coverage by statement blocks and never
//     counts a switch case as run; TestNameTooLongFails runs each.
package safefile

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/padinterview/padapi/internal/lib/redact"
)

func open(t *testing.T) (*Dir, string) {
	t.Helper()
	dir := t.TempDir()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, dir
}

func TestWriteFileMakesFoldersAndReplaces(t *testing.T) {
	d, dir := open(t)
	for _, text := range []string{"one", "two"} {
		if err := d.WriteFile("a/b/c.txt", []byte(text)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "a/b/c.txt"))
		if err != nil || string(got) != text {
			t.Fatalf("read %q, %v; want %q", got, err, text)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "a/b"))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want 1 (no temporary file left)", len(entries))
	}
}

func TestWriteFileRefusesWhatIsNotAFile(t *testing.T) {
	d, dir := open(t)
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(dir, "link")))
	must(t, os.Symlink(filepath.Join(outside, "f"), filepath.Join(dir, "flink")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	for _, name := range []string{"link/x", "flink", "fifo", "file/x", "../x", "/abs", "a/../../x", "", ".", `a\b`} {
		if err := d.WriteFile(name, []byte("k")); err == nil {
			t.Errorf("WriteFile(%q) = nil, want an error", name)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside: %v", entries)
	}
}

func TestWriteFileReplacesAHardLinkWithoutWritingThroughIt(t *testing.T) {
	d, dir := open(t)
	victim := filepath.Join(t.TempDir(), "victim")
	must(t, os.WriteFile(victim, []byte("keep"), 0o644))
	must(t, os.Link(victim, filepath.Join(dir, "f")))
	must(t, d.WriteFile("f", []byte("new")))
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Errorf("the linked file now holds %q", got)
	}
}

func TestRenameReplacesAFolderWhole(t *testing.T) {
	d, dir := open(t)
	must(t, d.WriteFile("pads/x/old.txt", []byte("old")))
	tmp, err := d.MkdirTemp("pads")
	must(t, err)
	if !strings.HasPrefix(filepath.Base(tmp), TempPrefix) {
		t.Errorf("temporary folder %q lacks the prefix", tmp)
	}
	must(t, d.WriteFile(tmp+"/new.txt", []byte("new")))
	must(t, d.Rename(tmp, "pads/x"))
	entries, _ := os.ReadDir(filepath.Join(dir, "pads/x"))
	if len(entries) != 1 || entries[0].Name() != "new.txt" {
		t.Errorf("pads/x holds %v, want only new.txt", entries)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "pads")); len(entries) != 1 {
		t.Errorf("pads holds %v, want only x", entries)
	}
}

func TestReadFileAndRemoveRefuseLinks(t *testing.T) {
	d, dir := open(t)
	outside := filepath.Join(t.TempDir(), "secret")
	must(t, os.WriteFile(outside, []byte("s"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(dir, "l")))
	if _, err := d.ReadFile("l"); err == nil {
		t.Error("ReadFile followed a link")
	}
	if err := d.Remove("l"); err == nil {
		t.Error("Remove took a link")
	}
	must(t, d.Remove("missing"))
	must(t, d.RemoveAll("missing"))
}

func TestName(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, c := range []struct{ id, want string }{
		{"abc-1_2", "abc-1_2"},
		{"ABC", "%41%42%43"},
		{"..", "%2e%2e"},
		{"a/b", "a%2fb"},
		{"notes.md", "notes%2emd"},
		{"history", "%68istory"},
	} {
		if got := Name(c.id, "history"); got != c.want {
			t.Errorf("Name(%q) = %q, want %q", c.id, got, c.want)
		}
	}
	if got := Name(long); len(got) > maxNameLen || !strings.Contains(got, "~") || got == Name(long+"b") {
		t.Errorf("Name(long) = %q", got)
	}
	if got := Name(""); got == "" || strings.ContainsAny(got, "/.") {
		t.Errorf("Name(\"\") = %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCreateWritesOnlyANewFile(t *testing.T) {
	d, dir := open(t)
	if err := d.Create("a/b/new.txt", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a/b/new.txt")); err != nil || string(b) != "one" {
		t.Fatalf("new.txt: %q, %v", b, err)
	}
	if err := d.Create("a/b/new.txt", []byte("two")); err == nil {
		t.Error("Create over a file: no error")
	}
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := d.Create("link", []byte("x")); err == nil {
		t.Error("Create through a link: no error")
	}
	if err := d.Create("link/x", []byte("x")); err == nil {
		t.Error("Create below a link: no error")
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("written through the link: %v", err)
	}
	if err := d.Create("../x", nil); err == nil {
		t.Error("Create ../x: no error")
	}
}

func TestSubOpensARealFolderOnly(t *testing.T) {
	d, dir := open(t)
	if err := d.MkdirAll("a/b"); err != nil {
		t.Fatal(err)
	}
	sub, err := d.Sub("a")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.WriteFile("b/c.txt", []byte("c")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a/b/c.txt")); err != nil || string(b) != "c" {
		t.Fatalf("c.txt: %q, %v", b, err)
	}
	if err := sub.WriteFile("../escape.txt", nil); err == nil {
		t.Error("a Sub wrote above itself")
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link", "missing", "a/b/c.txt", ".."} {
		if s, err := d.Sub(name); err == nil {
			s.Close()
			t.Errorf("Sub(%q): no error", name)
		}
	}
}

// Issue 28 #13: no name a write makes holds the key, as written or as
// Name escapes it, in any encoding the redactor knows; the refusal names
// the file with the key masked, and writes nothing.
func TestSecretNameRefused(t *testing.T) {
	const key = "padctl-secret-Qz7Xw9Kp3Lm"
	r := redact.New(key)
	d, dir := open(t)
	d.Redact = r.String
	hexKey := hex.EncodeToString([]byte(key))
	for _, name := range []string{
		key, "env/" + key + ".py", Name(key), Name(strings.ToUpper(key)), Name(key[5:]) + "/main.py",
		"src/" + url.PathEscape(strings.ToUpper(key)), hexKey, strings.ToUpper(hexKey), "a/" + strings.ToLower(key) + "/b",
		Name(key + strings.Repeat("x", 60)), base64.StdEncoding.EncodeToString([]byte(key)),
	} {
		for what, write := range map[string]func() error{
			"WriteFile": func() error { return d.WriteFile(name, []byte("x")) },
			"Create":    func() error { return d.Create(name, []byte("x")) },
			"MkdirAll":  func() error { return d.MkdirAll(name) },
			"Rename":    func() error { return d.Rename("old", name) },
		} {
			err := write()
			if !errors.Is(err, ErrSecretName) || !strings.Contains(err.Error(), redact.Mark) || r.Contains(err.Error()) {
				t.Errorf("%s(%q) = %v, want ErrSecretName naming the file without the key", what, name, err)
			}
		}
	}
	err := d.MkdirAll("s")
	var sub *Dir
	if err == nil {
		sub, err = d.Sub("s")
	}
	if err == nil {
		err = sub.WriteFile("x/"+key, nil)
	}
	if !errors.Is(err, ErrSecretName) {
		t.Errorf("a Sub's write under the key: %v", err)
	}
	// A name without the key is written as before, and nothing else was.
	if err := d.WriteFile(Name("ABC123")+"/main.py", []byte("x")); err != nil {
		t.Fatal(err)
	}
	var names []string
	_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error {
		names = append(names, p)
		return nil
	})
	if len(names) != 4 {
		t.Errorf("files in the folder: %q, want the folder, s, %%41%%42%%43123 and main.py", names)
	}
}

// A name the caller marked as its own (Dir.Own) is written even when 8
// characters of the key match it (a key holding "-archive" and the marker
// ".padctl-archive"); a name from the service that holds the key still is
// not, beside it or below it (issue 37 #13).
func TestOwnNamesNotRefused(t *testing.T) {
	const key = "sk_live-archive.lock-index.jsonl-pad.json"
	r := redact.New(key)
	own := []string{".padctl-archive", ".padctl-archive.lock", "index.jsonl", "pad.json"}
	for _, name := range own {
		if !r.Contains(name) && name != "pad.json" {
			t.Fatalf("the test's key does not match %q", name)
		}
	}
	d, dir := open(t)
	d.Redact = r.String
	// Without Own, the marker is refused: the check cannot tell.
	if err := d.WriteFile(".padctl-archive", nil); !errors.Is(err, ErrSecretName) {
		t.Fatalf("no Own: %v, want ErrSecretName", err)
	}
	d.Own = own
	for _, name := range []string{".padctl-archive", ".padctl-archive.lock", "index.jsonl", "pads/" + Name("ABC") + "/pad.json"} {
		if err := d.WriteFile(name, []byte("x")); err != nil {
			t.Errorf("WriteFile(%q): %v, want it written", name, err)
		}
	}
	if err := d.Create("new/index.jsonl", nil); err != nil {
		t.Errorf("Create: %v", err)
	}
	if err := d.Rename("new", "pads/"+Name("DEF")); err != nil {
		t.Errorf("Rename: %v", err)
	}
	sub, err := d.Sub("pads")
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.WriteFile(Name("GHI")+"/pad.json", nil); err != nil {
		t.Errorf("a Sub's own name: %v", err)
	}
	// What the service named is still checked, on its own and with
	// the parts that are not the caller's own together.
	for _, name := range []string{
		Name(key) + "/pad.json", "pads/" + Name(key[:20]) + "/pad.json", key[:10] + "/" + key[10:20] + "/index.jsonl",
		"pad.json/" + Name(key), "index.jsonl" + key[:8],
	} {
		// (The error may show an own name, which matches the key.)
		if err := d.WriteFile(name, nil); !errors.Is(err, ErrSecretName) || strings.Contains(err.Error(), key[:8]) || strings.Contains(err.Error(), key[10:18]) {
			t.Errorf("WriteFile(%q) = %v, want ErrSecretName without the key", name, err)
		}
		if err := sub.Create(name, nil); !errors.Is(err, ErrSecretName) {
			t.Errorf("Sub's Create(%q) = %v, want ErrSecretName", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".padctl-archive")); err != nil {
		t.Errorf("the marker: %v", err)
	}
}

// A caller's redactor that undoes no escape still refuses a name that is
// the key once its %xx escapes (Name's) are undone.
func TestSecretNameEscaped(t *testing.T) {
	const key = "Key.With/Caps"
	d, _ := open(t)
	d.Redact = strings.NewReplacer(key, "[X]").Replace
	if err := d.WriteFile(Name(key)+"/a.txt", nil); !errors.Is(err, ErrSecretName) {
		t.Errorf("the key escaped by Name: %v, want ErrSecretName", err)
	}
	if err := d.WriteFile(Name("other")+"/a.txt", nil); err != nil {
		t.Errorf("another name: %v", err)
	}
}

// fakeFile records what finish did with it, and fails as told.
type fakeFile struct {
	syncErr, closeErr error
	synced, closed    bool
}

func (f *fakeFile) Sync() error  { f.synced = true; return f.syncErr }
func (f *fakeFile) Close() error { f.closed = true; return f.closeErr }

// finish syncs after a good write unless lazy, always closes, and returns
// the first error of the write, the sync and the close.
func TestFinish(t *testing.T) {
	errWrite, errSync, errClose := errors.New("write"), errors.New("sync"), errors.New("close")
	for _, c := range []struct {
		write, sync, close error
		lazy               bool
		want               error
		synced             bool
	}{
		{nil, nil, nil, false, nil, true},
		{nil, nil, nil, true, nil, false},
		{errWrite, nil, nil, false, errWrite, false},
		{errWrite, nil, errClose, false, errWrite, false},
		{nil, errSync, nil, false, errSync, true},
		{nil, errSync, errClose, false, errSync, true},
		{nil, nil, errClose, false, errClose, true},
		{nil, nil, errClose, true, errClose, false},
	} {
		f := &fakeFile{syncErr: c.sync, closeErr: c.close}
		if err := finish(f, c.write, c.lazy); err != c.want || f.synced != c.synced || !f.closed {
			t.Errorf("%+v: %v, synced %v, closed %v; want %v, synced %v, closed", c, err, f.synced, f.closed, c.want, c.synced)
		}
	}
}

func TestReadFileAndLstat(t *testing.T) {
	d, dir := open(t)
	must(t, d.WriteFile("a/f.txt", []byte("hello")))
	if b, err := d.ReadFile("a/f.txt"); err != nil || string(b) != "hello" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	must(t, os.Symlink("f.txt", filepath.Join(dir, "a", "inside")))
	for name, want := range map[string]string{"a/inside": "a symbolic link: not reading it", "a": "a directory: not reading it", "../x": "not a path inside"} {
		if _, err := d.ReadFile(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadFile(%q) = %v, want %q", name, err, want)
		}
	}
	if _, err := d.ReadFile("a/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of nothing: %v", err)
	}
	if fi, err := d.Lstat("."); err != nil || !fi.IsDir() {
		t.Errorf("Lstat(.) = %v, %v", fi, err)
	}
	if fi, err := d.Lstat("a/inside"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a link = %v, %v; want the link itself", fi, err)
	}
	if _, err := d.Lstat("../a"); err == nil || !strings.Contains(err.Error(), "not a path inside") {
		t.Errorf("Lstat(../a) = %v", err)
	}
}

func TestKind(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		fs.ModeSymlink | 0o777:                "a symbolic link",
		fs.ModeNamedPipe:                      "a FIFO",
		fs.ModeSocket:                         "a socket",
		fs.ModeDevice:                         "a device",
		fs.ModeDevice | fs.ModeCharDevice:     "a device",
		fs.ModeDir | 0o755:                    "a directory",
		0o644:                                 "a regular file",
		fs.ModeIrregular:                      "mode ?---------",
		fs.ModeCharDevice | fs.ModeDevice | 1: "a device",
	} {
		if got := Kind(m); got != want {
			t.Errorf("Kind(%v) = %q, want %q", m, got, want)
		}
	}
}

// Name writes exactly a-z, 0-9, '-' and '_' as they are: the bytes on
// either side of each range are escaped.
func TestNameBoundaries(t *testing.T) {
	for id, want := range map[string]string{
		"az09-_": "az09-_",
		"`":      "%60", "{": "%7b", "/": "%2f", ":": "%3a", "@": "%40", "[": "%5b", ",": "%2c", ".": "%2e", "^": "%5e",
		"\x00": "%00", "\xff": "%ff",
	} {
		if got := Name(id); got != want {
			t.Errorf("Name(%q) = %q, want %q", id, got, want)
		}
	}
}

// A name the system refuses (over 255 bytes a part) fails every call
// with the name, and writes nothing.
func TestNameTooLongFails(t *testing.T) {
	d, dir := open(t)
	long := strings.Repeat("n", 300)
	must(t, d.WriteFile("f", []byte("x")))
	for what, call := range map[string]func() error{
		"MkdirAll": func() error { return d.MkdirAll(long + "/x") },
		"Rename":   func() error { return d.Rename("f", long) },
		"Remove":   func() error { return d.Remove(long) },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), long[:20]) {
			t.Errorf("%s: %v, want an error naming it", what, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want f alone", len(entries))
	}
}

// A rename that fails after the folder at newname was moved aside puts
// it back.
func TestRenameFailedPutsTheFolderBack(t *testing.T) {
	d, dir := open(t)
	must(t, d.WriteFile("d/keep.txt", []byte("x")))
	if err := d.Rename("missing", "d"); err == nil {
		t.Fatal("renaming nothing: no error")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "d", "keep.txt")); err != nil || string(b) != "x" {
		t.Errorf("the folder at newname: %q, %v; want it back whole", b, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want d alone", len(entries))
	}
}

// A long ID's name is cut at an escape's start, never inside one, and
// keeps every whole escape before the cut.
func TestNameCutAtAnEscape(t *testing.T) {
	tail := strings.Repeat("b", 70)
	for k, want := range map[int]string{
		43: strings.Repeat("a", 43) + "%41b",
		44: strings.Repeat("a", 44) + "%41",
		45: strings.Repeat("a", 45),
		46: strings.Repeat("a", 46),
		47: strings.Repeat("a", 47),
	} {
		id := strings.Repeat("a", k) + "A" + tail
		got := Name(id)
		if prefix, _, ok := strings.Cut(got, "~"); !ok || prefix != want || len(got) > maxNameLen {
			t.Errorf("Name(%d a's, A, b's) = %q, want %q~hash", k, got, want)
		}
	}
}

func TestRemoveAll(t *testing.T) {
	d, dir := open(t)
	must(t, d.WriteFile("d/e/f.txt", []byte("x")))
	must(t, os.Symlink(t.TempDir(), filepath.Join(dir, "d", "link")))
	must(t, d.RemoveAll("d"))
	if _, err := os.Lstat(filepath.Join(dir, "d")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("d after RemoveAll: %v", err)
	}
	if err := d.RemoveAll("../d"); err == nil || !strings.Contains(err.Error(), "not a path inside") {
		t.Errorf("RemoveAll(../d) = %v", err)
	}
}

// A name of 64 bytes is kept as it is; one byte more is cut and hashed.
func TestNameLengthLimit(t *testing.T) {
	at := strings.Repeat("a", maxNameLen)
	if got := Name(at); got != at {
		t.Errorf("Name of %d bytes = %q, want it as it is", maxNameLen, got)
	}
	if got := Name(at + "a"); got == at+"a" || !strings.Contains(got, "~") || len(got) > maxNameLen {
		t.Errorf("Name of %d bytes = %q, want it cut and hashed", maxNameLen+1, got)
	}
}

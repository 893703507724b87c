// accounts.go: padctl mcp --accounts FILE: several accounts from one configuration file.

package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// accountsFile is the accounts file: {"accounts":{"name":{"base_url":…,
// "key_env":… | "key_file":…}}}.
type accountsFile struct {
	Accounts map[string]accountEntry `json:"accounts"`
}

// accountEntry is one account: where the service is, and where its key
// is (a variable or a file, never the key itself).
type accountEntry struct {
	BaseURL string `json:"base_url"`
	KeyEnv  string `json:"key_env"`
	KeyFile string `json:"key_file"`
}

// maxAccountsFile bounds the accounts file and a key file.
const maxAccountsFile = 1 << 20

// readPrivate reads a file that holds or names secrets: refused unless its
// mode is 0600 (owner read and write, nobody else), naming the mode. what
// says what the file is, for the message.
func readPrivate(path, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, cmdutil.UsageErrorf("%s %s: %v", what, path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, cmdutil.UsageErrorf("%s %s is not a regular file", what, path)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		return nil, cmdutil.UsageErrorf("%s %s has mode %04o; it must be 0600 (readable by its owner only): chmod 600 %s", what, path, perm, path)
	}
	if st.Size() > maxAccountsFile {
		return nil, cmdutil.UsageErrorf("%s %s is %d bytes, over the %d this reads", what, path, st.Size(), maxAccountsFile)
	}
	return os.ReadFile(path)
}

// loadAccounts reads the accounts file at path and makes a client for
// each account. It returns the clients and every key, for the redactor;
// no error names a key. getenv reads key_env variables; rt, when not nil,
// carries the requests (tests).
func loadAccounts(path string, getenv func(string) string, rt http.RoundTripper) (map[string]*padapi.Client, []string, error) {
	b, err := readPrivate(path, "the accounts file")
	if err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f accountsFile
	if err := dec.Decode(&f); err != nil {
		return nil, nil, cmdutil.UsageErrorf("the accounts file %s: %v; want {\"accounts\":{\"NAME\":{\"base_url\":…, \"key_env\":… or \"key_file\":…}}}", path, err)
	}
	names := make([]string, 0, len(f.Accounts))
	for n := range f.Accounts {
		names = append(names, n)
	}
	slices.Sort(names)
	clients := map[string]*padapi.Client{}
	var keys []string
	for _, name := range names {
		a := f.Accounts[name]
		key, err := a.key(name, getenv)
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, key)
		opts := []padapi.Option{padapi.WithUserAgent("padctl/" + padapi.Version)}
		if rt != nil {
			opts = append(opts, padapi.WithHTTPClient(&http.Client{Transport: rt}))
		}
		c, err := padapi.NewClient(a.BaseURL, key, opts...)
		if err != nil {
			return nil, nil, cmdutil.UsageErrorf("the accounts file %s: account %q: %v", path, name, err)
		}
		clients[name] = c
	}
	return clients, keys, nil
}

// key is the account's key, from its variable or its file (the trailing
// newline trimmed).
func (a accountEntry) key(name string, getenv func(string) string) (string, error) {
	var key string
	switch {
	case name == "" || strings.ContainsAny(name, " \t\n"):
		return "", cmdutil.UsageErrorf("the accounts file: account name %q: want a name without spaces", name)
	case (a.KeyEnv == "") == (a.KeyFile == ""):
		return "", cmdutil.UsageErrorf("the accounts file: account %q: give one of key_env and key_file", name)
	case a.KeyEnv != "":
		if key = getenv(a.KeyEnv); key == "" {
			return "", cmdutil.UsageErrorf("the accounts file: account %q: its key_env %s is not set", name, a.KeyEnv)
		}
	default:
		b, err := readPrivate(a.KeyFile, fmt.Sprintf("account %q's key_file", name))
		if err != nil {
			return "", err
		}
		key = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if key == "" {
			return "", cmdutil.UsageErrorf("the accounts file: account %q: its key_file %s is empty", name, a.KeyFile)
		}
	}
	return key, nil
}

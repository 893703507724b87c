package qfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
)

// StateFile is the file in a library's directory where pull and apply
// record the questions they synced, so that apply --prune deletes only
// those, and so that what the service does not show (a multi-file
// question's files) can be compared at all.
const StateFile = ".padctl-questions.json"

// State is what StateFile holds.
type State struct {
	// Origin is the service and organization the library was last pulled
	// from or applied to; nil in a library synced before padctl recorded
	// it (the next pull or apply records it).
	Origin *Origin `json:"origin,omitempty"`
	// Questions are the questions pull or apply synced into this library,
	// by ID.
	Questions map[string]Record `json:"questions"`
}

// Record is what padctl knows of one question it synced.
type Record struct {
	// Folder is the question's folder when it was last synced.
	Folder string `json:"folder"`
	// Digests are the fields' digests (Question.Digests) as the folder and
	// the service last agreed on them. Pull tells a local change from a
	// change on the service by them, and FieldFiles's is the only record of
	// a multi-file question's files.
	Digests map[string]string `json:"digests"`
	// UpdatedAt is the service's updated_at after the last sync: a list
	// answer older than it is stale (lists lag), and the question is then
	// fetched on its own.
	UpdatedAt time.Time `json:"updated_at,omitzero"`
	// Variants are the question's variants padctl synced, by ID.
	Variants map[string]VariantRecord `json:"variants,omitempty"`
}

// VariantRecord is what padctl knows of one variant it synced.
type VariantRecord struct {
	// Name is the variant's sub-folder when it was last synced.
	Name string `json:"name"`
	// Digest is the variant's Digest as the folder and the service last
	// agreed on it.
	Digest string `json:"digest"`
}

// Origin is where a library's ids come from: the same id on another
// service, or in another organization, is another question.
type Origin struct {
	// BaseURL is the service's base URL, "" when not known.
	BaseURL string `json:"base_url,omitempty"`
	// Organization is the organization's name, as its questions carry it,
	// "" when not known (no question showed one).
	Organization string `json:"organization,omitempty"`
}

// readState reads StateFile below root; none is an empty state.
func readState(root *os.Root) (*State, error) {
	st := &State{Questions: map[string]Record{}}
	b, err := readRegular(root, StateFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("%s: %v", StateFile, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(st); err != nil {
		return st, fmt.Errorf("%s:%d: %v (delete it to start afresh: apply --prune then deletes nothing until pull or apply records again)", StateFile, lineOf(string(b), err, dec.InputOffset()), err)
	}
	if st.Questions == nil {
		st.Questions = map[string]Record{}
	}
	for id := range st.Questions {
		if _, err := parseID(json.RawMessage(`"` + id + `"`)); err != nil {
			return st, fmt.Errorf("%s: %v", StateFile, err)
		}
	}
	return st, nil
}

// Save writes the state atomically.
func (w *Writer) Save(st *State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return w.WriteFile(StateFile, string(b)+"\n")
}

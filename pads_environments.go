// pads_environments.go: PadEnvironment, FileContent, and GET /api/pad_environments/ID.

package padapi

import (
	"context"
	"net/http"
	"time"
)

// PadEnvironment is one environment of a pad: the files of one language or
// question the pad used, as they were last. A pad lists its environments in
// Pad.PadEnvironmentIDs, and the one in use in Pad.ActiveEnvironmentID.
type PadEnvironment struct {
	// ID identifies the environment.
	ID ID `json:"id"`
	// PadID is the pad the environment belongs to.
	PadID ID `json:"pad_id"`
	// QuestionID and ExampleQuestionID are the question it started from,
	// or nil.
	QuestionID        *ID `json:"question_id"`
	ExampleQuestionID *ID `json:"example_question_id"`
	// Language is the environment's language.
	Language string `json:"language"`
	// Files are the environment's files with their final contents.
	Files []FileContent `json:"file_contents"`
	// CreatedAt and UpdatedAt are when it was created and last changed.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// FileContent is one file of a pad environment.
type FileContent struct {
	// Path is the file's path, such as "main.py".
	Path string `json:"path"`
	// Contents is the file's final text; "" when the service sent null.
	Contents string `json:"contents"`
	// History links to the file's edit history (see PadsService.History);
	// "" when there is none.
	History string `json:"history"`
	// Binary marks a file whose contents are not text.
	Binary bool `json:"binary,omitempty"`
}

// Environment returns one environment of a pad
// (GET /api/pad_environments/ID): the final code of each of its files. id
// is an environment ID from Pad.PadEnvironmentIDs, not a pad ID.
func (s *PadsService) Environment(ctx context.Context, id ID) (*PadEnvironment, error) {
	path, err := resourcePath("/api/pad_environments", id)
	if err != nil {
		return nil, err
	}
	return get[PadEnvironment](ctx, s.client, &request{method: http.MethodGet, path: path, need: "id", what: "environment"})
}

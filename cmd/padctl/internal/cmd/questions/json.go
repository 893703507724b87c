// json.go: the plan and apply's results as JSON (diff --json, apply --json).

package questions

import (
	"time"

	"github.com/padinterview/padapi/internal/app/qsync"
)

// planJSON is diff --json's output, and apply --json's with Results.
type planJSON struct {
	// Dir is the question folder.
	Dir string `json:"dir"`
	// Changes is whether applying the plan changes anything (diff's exit
	// status 1).
	Changes bool `json:"changes"`
	// Steps are the plan's steps, in order, those that change nothing
	// included.
	Steps []stepJSON `json:"steps"`
	// Summary counts the steps by action.
	Summary map[string]int `json:"summary"`
	// Results are what apply did, in order (apply only).
	Results []resultJSON `json:"results,omitempty"`
	// Applied counts the results by action (apply only).
	Applied map[string]int `json:"applied,omitempty"`
	// Error is why apply stopped, "" when it did not (apply only).
	Error string `json:"error,omitempty"`
}

// stepJSON is one step of a plan.
type stepJSON struct {
	Action   string       `json:"action"`
	Reason   string       `json:"reason"`
	Folder   string       `json:"folder,omitempty"`
	ID       string       `json:"id,omitempty"`
	Title    string       `json:"title,omitempty"`
	Language string       `json:"language,omitempty"`
	Changes  []changeJSON `json:"changes,omitempty"`
	Files    []string     `json:"files,omitempty"`
	// Since is when a pending create was sent; Wait how long apply waits
	// for the list to show it.
	Since *time.Time `json:"pending_since,omitempty"`
	Wait  string     `json:"wait,omitempty"`
}

// changeJSON is one changed field.
type changeJSON struct {
	Field string `json:"field"`
	File  string `json:"file"`
	// Service and Folder are the field's values as compared; Service is
	// absent when no answer shows it (a multi-file question's files).
	Service *string `json:"service,omitempty"`
	Folder  string  `json:"folder"`
}

// resultJSON is one step apply carried out.
type resultJSON struct {
	Action string `json:"action"`
	Folder string `json:"folder,omitempty"`
	ID     string `json:"id,omitempty"`
	Title  string `json:"title,omitempty"`
}

// planJSON returns p as diff --json prints it; results, when not nil,
// are apply's.
func (s *syncer) planJSON(p *qsync.Plan, results []resultJSON) *planJSON {
	out := &planJSON{Dir: s.o.Dir, Changes: p.Changes(), Steps: []stepJSON{}, Summary: map[string]int{}, Results: results}
	for i := range p.Steps {
		st := &p.Steps[i]
		js := stepJSON{Action: string(st.Kind), Reason: string(st.Reason), Folder: st.Folder, ID: st.ID,
			Title: st.Title, Language: st.Language, Files: st.Files}
		if !st.Since.IsZero() {
			js.Since = &st.Since
		}
		if st.Wait > 0 {
			js.Wait = st.Wait.String()
		}
		for _, c := range st.Changes {
			cj := changeJSON{Field: c.Field, File: st.FileOf(c.Field), Folder: c.Folder}
			if !c.Unreadable {
				cj.Service = &c.Service
			}
			js.Changes = append(js.Changes, cj)
		}
		out.Steps = append(out.Steps, js)
		out.Summary[js.Action]++
	}
	for i := range p.Variants {
		st := &p.Variants[i]
		js := stepJSON{Action: "variant " + string(st.Kind), Reason: string(st.Reason), Folder: st.Path(), ID: st.ID, Language: st.Language}
		for _, c := range st.Changes {
			js.Changes = append(js.Changes, changeJSON{Field: c})
		}
		out.Steps = append(out.Steps, js)
		out.Summary[js.Action]++
	}
	return out
}

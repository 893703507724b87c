package doctor

import (
	"context"

	"github.com/padinterview/padapi/internal/shapes"
)

// What doctor's external tests reach inside for.

// Check and Difference are what doctor --json prints.
type (
	Check      = check
	Difference = difference
)

// Reference is reference.
func Reference(ctx context.Context) (map[string]shapes.Shape, error) { return reference(ctx) }

// CallLabels are the labels of the calls doctor --shapes makes, in order.
func CallLabels() []string {
	labels := make([]string, len(shapeCalls))
	for i, c := range shapeCalls {
		labels[i] = c.label
	}
	return labels
}

// ShapeOf is the shape of body as an answer to the call labelled label,
// or ok false when there is no such call.
func ShapeOf(label string, body []byte) (s shapes.Shape, ok bool, err error) {
	for _, c := range shapeCalls {
		if c.label == label {
			s, err = shapeOf(c, body)
			return s, true, err
		}
	}
	return nil, false, nil
}

// DiffLine is how a difference of the call labelled label prints.
func DiffLine(label string, d shapes.Diff) string { return difference{label, d}.line() }

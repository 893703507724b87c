package padapi

import (
	"errors"
	"fmt"
)

// checkAPIKey reports what is wrong with a key without ever quoting it: the
// key ends up inside a quoted header value, so a quote, a backslash or a
// control character would corrupt the header or smuggle another one in.
func checkAPIKey(key string) error {
	if key == "" {
		return errors.New("padapi: the API key is empty")
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("padapi: the API key has a character that is not allowed at byte %d (only printable ASCII without \" or \\)", i)
		}
	}
	return nil
}

// authorization is the header value the service expects on every request.
func authorization(key string) string {
	return `Token token="` + key + `"`
}

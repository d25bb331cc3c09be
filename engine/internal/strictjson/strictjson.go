// Package strictjson is what the games' script packages (engine/*/script) share: a strict decoder
// (what it accepts has one meaning), and the errors a script gets (ParseError: where it is
// malformed; ReplayError: the move a game refused) and how it ended (End).
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// Decode decodes one JSON object into v (a pointer to a struct), refusing a key that is not
// exactly one of v's JSON field names (encoding/json alone matches names case-insensitively), a
// key given twice (encoding/json alone keeps the last), and data after the object.
func Decode(data []byte, v any) error {
	if err := checkKeys(data, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the closing brace")
	}
	return nil
}

// checkKeys refuses an object key that is not exactly one of v's JSON field names, or that
// comes twice. Input that is not an object is left to the decoder, which says what is wrong.
func checkKeys(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	allowed := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		allowed[name] = true
	}
	seen := map[string]bool{}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
		if seen[k] {
			return fmt.Errorf("field %q appears twice", k)
		}
		seen[k] = true
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !allowed[k] {
			return fmt.Errorf("unknown field %q", k)
		}
	}
	return nil
}

// Moves writes a script's moves and closes the script: ` "moves": [`, each move on a line of
// its own, written by write (whose error is given with the move's number, counted from 1),
// and `]}`.
func Moves(b *bytes.Buffer, n int, write func(b *bytes.Buffer, i int) error) error {
	b.WriteString(" \"moves\": [")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		if err := write(b, i); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	b.WriteString("\n]}\n")
	return nil
}

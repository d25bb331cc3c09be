package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// ParseError says where a script is malformed. Every game's script package names it as its
// own (script.ParseError).
type ParseError struct {
	Where string // "line 3, column 14", "move 12", "deck"; "" for the whole document
	Err   error
}

func (e *ParseError) Error() string {
	if e.Where == "" {
		return e.Err.Error()
	}
	return e.Where + ": " + e.Err.Error()
}
func (e *ParseError) Unwrap() error { return e.Err }

// At is the ParseError of what Decode said of data: where in data (a line and a column) and
// what, in a script writer's words rather than encoding/json's.
func At(data []byte, err error) *ParseError {
	return &ParseError{Where: where(data, err), Err: Clean(err)}
}

// where turns a JSON decoding error into a line and column of data: the offending character,
// or the start of a value of the wrong type.
func where(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offset counts the offending byte
	case errors.As(err, &te):
		off = valueStart(data, te.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
	}
	if off < 0 {
		return ""
	}
	off = min(off, int64(len(data)))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
}

// valueStart finds where the JSON value that ends at offset end begins: a string, an object or
// array, or a bare literal.
func valueStart(data []byte, end int64) int64 {
	end = min(end, int64(len(data)))
	i := end - 1
	for i >= 0 && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i--
	}
	if i < 0 {
		return 0
	}
	switch data[i] {
	case '"':
		for j := i - 1; j >= 0; j-- {
			if data[j] == '"' && (j == 0 || data[j-1] != '\\') {
				return j
			}
		}
	case '}', ']':
		depth := 0
		for j := i; j >= 0; j-- {
			switch data[j] {
			case '}', ']':
				depth++
			case '{', '[':
				if depth--; depth == 0 {
					return j
				}
			}
		}
	default:
		j := i
		for j > 0 && strings.IndexByte("0123456789+-.eEtruefalsn", data[j-1]) >= 0 {
			j--
		}
		return j
	}
	return i
}

// Clean says a decoding error in a script writer's words.
func Clean(err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s: want %s, got a JSON %s", field, typeWords(te.Type), te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the script ends too soon (unexpected end of input)")
	case errors.Is(err, io.EOF):
		return errors.New("empty script")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// typeWords names a Go type as a script writer knows it.
func typeWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return t.String()
}

// ReplayError is an illegal move: the script's move Move (counted from 1) and why the game
// refused it. It reads "move K: ..."; as JSON, {"move": K, "message": "..."}. Every game's
// script package names it as its own (script.ReplayError).
type ReplayError struct {
	Move int
	Err  error
}

func (e *ReplayError) Error() string { return fmt.Sprintf("move %d: %v", e.Move, e.Err) }
func (e *ReplayError) Unwrap() error { return e.Err }

// MarshalJSON writes {"move": K, "message": "..."}.
func (e *ReplayError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Move    int    `json:"move"`
		Message string `json:"message"`
	}{e.Move, e.Err.Error()})
}

// End is how a game ended: why (in the game's words), and the script's move (counted from 1)
// that ended it. Every game's script package names it as its own (script.End).
type End struct {
	Reason string `json:"reason"`
	Move   int    `json:"move"`
}

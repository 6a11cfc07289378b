// The macOS counterpart of DeliberateTypeError.swift: a type error only a
// macOS SDK can report. `make check-apple` expects this file to fail.
import SwiftUI

let notALength: CGFloat = Text("not a length")

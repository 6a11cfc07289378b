// A deliberate type error that only an iOS SDK can report (UIView exists
// there and is not a CGFloat). `make check-apple` expects this file to fail:
// if it type-checks clean, the checker is not really checking.
import UIKit

let notALength: CGFloat = UIView()

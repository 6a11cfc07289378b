import Foundation

/// The camera and lens a photo's EXIF data names (IFD0's `Make` and
/// `Model`, the Exif IFD's `LensMake` and `LensModel`), as the camera
/// wrote them, without padding: what a photo's information panel shows.
public struct CameraDescription: Sendable, Hashable {
    /// The camera's maker ("Apple", "FUJIFILM").
    public var make: String?
    /// The camera's model ("iPhone 15 Pro", "X-T4").
    public var model: String?
    /// The lens's maker.
    public var lensMake: String?
    /// The lens's model ("iPhone 15 Pro back triple camera 6.765mm f/1.78").
    public var lensModel: String?

    /// A description of the fields given (all `nil` by default).
    public init(make: String? = nil, model: String? = nil, lensMake: String? = nil, lensModel: String? = nil) {
        self.make = make
        self.model = model
        self.lensMake = lensMake
        self.lensModel = lensModel
    }

    /// Whether no field is known.
    public var isEmpty: Bool { make == nil && model == nil && lensMake == nil && lensModel == nil }

    /// The camera as people say it: the model, after the make unless the
    /// model already starts with it ("Canon EOS R5", not "Canon Canon EOS
    /// R5"); `nil` when neither is known.
    public var cameraName: String? {
        guard let model else { return make }
        guard let make, !model.lowercased().hasPrefix(make.lowercased()) else { return model }
        // Makers write themselves in capitals ("NIKON CORPORATION", "FUJIFILM"): the first word, as written.
        let brand = make.split(separator: " ").first.map(String.init) ?? make
        return model.lowercased().hasPrefix(brand.lowercased()) ? model : "\(brand) \(model)"
    }

    /// The lens as people say it: its model, after its maker when the
    /// model does not start with it; `nil` when no lens model is known.
    public var lensName: String? {
        guard let lensModel else { return nil }
        guard let lensMake, !lensModel.lowercased().hasPrefix(lensMake.lowercased()) else { return lensModel }
        return "\(lensMake) \(lensModel)"
    }
}
